/** The campaign operations of the OpenAPI document (refinement campaigns, issue #15). */
import type { OperationSpec } from "./openapi-spec";
import { campaignsContract } from "../campaigns";

export const campaignOperations: OperationSpec[] = [
  { path: "/api/campaigns", method: "get", operationId: "findCampaigns", request: campaignsContract.findCampaigns, tag: "campaigns", summary: "Campaigns, newest first", response: { schema: "CampaignSummary", list: true }, errors: [400, 500] },
  {
    path: "/api/campaigns",
    method: "post",
    operationId: "startCampaign",
    request: campaignsContract.startCampaign,
    tag: "campaigns",
    summary: "Start a refinement campaign over a question set in a sandbox of the graph",
    description: "Answers 202 at once; watch it with GET /api/campaigns/{id}. The live graph does not change: the best accepted iteration becomes one proposal in the review queue.",
    status: 202,
    response: { schema: "StartedCampaign" },
    errors: [400, 404, 500],
  },
  { path: "/api/campaigns/{id}", method: "get", operationId: "getCampaign", request: campaignsContract.getCampaign, tag: "campaigns", summary: "One campaign with every iteration, its sandbox changes and the worklog", response: { schema: "CampaignDetails" }, errors: [400, 404, 500] },
  {
    path: "/api/campaigns/{id}/stop",
    method: "post",
    operationId: "stopCampaign",
    request: campaignsContract.stopCampaign,
    tag: "campaigns",
    summary: "Stop a running campaign; it keeps its iterations and submits its best accepted one",
    status: 202,
    response: { schema: "CampaignDetails" },
    errors: [400, 404, 409, 500],
  },
  {
    path: "/api/campaigns/{id}/resume",
    method: "post",
    operationId: "resumeCampaign",
    request: campaignsContract.resumeCampaign,
    tag: "campaigns",
    summary: "Go on with an interrupted campaign from its stored iterations, in this server",
    status: 202,
    response: { schema: "StartedCampaign" },
    errors: [400, 404, 409, 500],
  },
];
