/** The request contracts of the version routes (list, diff, revert) and of the review calibration, and the calibration's response schema. */
import { z } from "zod";
import { graphParams, versionParams } from "../../api/contract";
import type { RequestContract } from "../../api/contract";
import { calibrationRequestSchema } from "./review-calibration";

export const proposalsContract = {
  findVersions: { params: graphParams },
  revertVersion: {
    params: versionParams,
    body: z
      .object({})
      .describe("empty: the signed-in person reverts (recorded as the changeset's actor)")
      .meta({ examples: [{}] }),
  },
  diffVersions: { params: graphParams, query: z.object({ from: z.coerce.number().int().min(1), to: z.coerce.number().int().min(1) }) },
  getCalibration: { params: graphParams },
  updateCalibration: { params: graphParams, body: calibrationRequestSchema.meta({ examples: [{ action: "refit", expected: { high: 0.8, medium: 0.5 } }, { action: "reset" }] }) },
} satisfies Record<string, RequestContract>;

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

/** Response schemas of the calibration routes, registered as components of the OpenAPI document. */
export const calibrationResponses = {
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
