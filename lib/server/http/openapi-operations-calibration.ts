/** The calibration operations of the OpenAPI document (decision statistics and threshold re-fit, issue #10). */
import type { OperationSpec } from "./openapi-spec";
import { proposalsContract } from "../proposals";

export const calibrationOperations: OperationSpec[] = [
  {
    path: "/api/graphs/{name}/calibration",
    method: "get",
    operationId: "getCalibration",
    request: proposalsContract.getCalibration,
    tag: "proposals",
    summary: "How reviewers decided on this graph, per action kind and label (approved, rejected, reverted), its score thresholds and the re-fit the decisions support",
    response: { schema: "GraphCalibration" },
    errors: [400, 404, 500],
  },
  {
    path: "/api/graphs/{name}/calibration",
    method: "post",
    operationId: "updateCalibration",
    request: proposalsContract.updateCalibration,
    tag: "proposals",
    summary: "Apply the re-fitted thresholds ({action: refit}) or go back to the defaults ({action: reset}); admins only, audited",
    description:
      "A re-fit needs enough decisions (see refit.minDecisions and refit.minPerOutcome in the GET answer); otherwise 409. Pass `expected` with the thresholds you were shown: if new decisions moved the fit, nothing changes (409). Actions without positive evidence stay LOW whatever the thresholds. New thresholds apply to reviews made from now on; stored labels do not change.",
    response: { schema: "GraphCalibration" },
    errors: [400, 404, 409, 500],
  },
];
