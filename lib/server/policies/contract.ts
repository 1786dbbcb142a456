/** The request contracts of the approval policy routes (app/api/graphs/{name}/policy). */
import { DEFAULT_APPROVAL_POLICY, approvalPolicySchema } from "../../auth/approval-policy";
import { graphParams } from "../../api/contract";
import type { RequestContract } from "../../api/contract";

export const policiesContract = {
  getApprovalPolicy: { params: graphParams },
  updateApprovalPolicy: { params: graphParams, body: approvalPolicySchema.meta({ examples: [DEFAULT_APPROVAL_POLICY] }) },
} satisfies Record<string, RequestContract>;
