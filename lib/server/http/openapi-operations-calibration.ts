/** The calibration operations of the OpenAPI document (decision statistics and threshold re-fit, issue #10). */
import { z } from "zod";
import type { OperationSpec } from "./openapi-spec";
import { params } from "./openapi-requests";
import { calibrationRequestSchema } from "../proposals";

const int = z.number().int();
const confidence = z.enum(["HIGH", "MEDIUM", "LOW"]);
const share = z.number().min(0).max(1);
const outcomes = z.object({ accepted: int, refused: int });

const DecisionStats = z.object({
  graph: z.string(),
  decided: int,
  stats: z.array(
    z.object({
      kind: z.enum(["insert_edge", "delete_edge", "replace_node"]),
      label: confidence.describe("the label the action carried when people decided"),
      decided: int.describe("approved + rejected"),
      approved: int.describe("approved by people (applied, skipped as already true, or later reverted)"),
      rejected: int.describe("vetoed"),
      reverted: int.describe("of the approved, undone by a later revert"),
    }),
  ),
});

/** Response schemas, registered as components in openapi.ts. */
export const calibrationSchemas = {
  GraphCalibration: z.object({
    graph: z.string(),
    stats: DecisionStats,
    thresholds: z
      .object({ high: share, medium: share, decisions: int, appliedAt: z.string().describe("ISO 8601 date-time"), appliedBy: z.string() })
      .nullable()
      .describe("this graph's re-fitted thresholds; null: the review's defaults apply"),
    defaults: z.object({ high: share, medium: share }).describe("the review's default thresholds"),
    refit: z.object({
      thresholds: z.object({ high: share, medium: share }).nullable().describe("what a re-fit would set now; null when the decisions do not suffice (see reason)"),
      reason: z.string(),
      decisions: int.describe("decisions the fit rests on: scored actions with positive evidence"),
      accepted: int,
      refused: int.describe("rejected, or approved and later reverted"),
      floorDecisions: int.describe("decided actions without positive evidence: LOW whatever the thresholds, not fitted"),
      unscoredDecisions: int.describe("decided actions whose stored review has no score"),
      minDecisions: int,
      minPerOutcome: int,
      agreementBefore: share.nullable().describe("share of the fitted decisions the labels given agreed with (accepted ⇔ not LOW)"),
      agreementAfter: share.nullable(),
      high: z.object({ floor: share, minSupport: int, precision: share.nullable(), support: int, isReachable: z.boolean() }),
      byLabel: z.object({ HIGH: outcomes, MEDIUM: outcomes, LOW: outcomes }).nullable(),
    }),
  }),
};

export const calibrationOperations: OperationSpec[] = [
  {
    path: "/api/graphs/{name}/calibration",
    method: "get",
    operationId: "getCalibration",
    tag: "proposals",
    summary: "How reviewers decided on this graph, per action kind and label (approved, rejected, reverted), its score thresholds and the re-fit the decisions support",
    params: params.graph,
    response: { schema: "GraphCalibration" },
    errors: [400, 404, 500],
  },
  {
    path: "/api/graphs/{name}/calibration",
    method: "post",
    operationId: "updateCalibration",
    tag: "proposals",
    summary: "Apply the re-fitted thresholds ({action: refit}) or go back to the defaults ({action: reset}); admins only, audited",
    description:
      "A re-fit needs enough decisions (see refit.minDecisions and refit.minPerOutcome in the GET answer); otherwise 409. Pass `expected` with the thresholds you were shown: if new decisions moved the fit, nothing changes (409). Actions without positive evidence stay LOW whatever the thresholds. New thresholds apply to reviews made from now on; stored labels do not change.",
    params: params.graph,
    body: { schema: calibrationRequestSchema },
    response: { schema: "GraphCalibration" },
    errors: [400, 404, 409, 500],
  },
];
