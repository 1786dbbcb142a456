/**
 * The campaign page's view renders a real campaign (countries_S1, stand-in model, in-process):
 * the trajectory chart with its text, a row per iteration, the selected iteration's sandbox diff
 * and devil's-advocate findings, and the worklog.
 */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CampaignView } from "@/components/campaigns/campaign-view";
import { trajectoryText } from "@/components/campaigns/trajectory-chart";
import { createCampaignRunner } from "@/lib/campaign/create-campaign-runner";
import { runCampaign } from "@/lib/campaign/run-campaign";
import { countryQuestions, hierarchyModel } from "@/lib/campaign/test-support";
import { parseTriples } from "@/lib/import/parse-triples";
import { mineGraphRules } from "@/lib/review/mine-graph-rules";
import type { CampaignDetails } from "@/lib/server/campaigns/campaigns";
import { readData } from "@/lib/test/data";

describe("CampaignView", () => {
  it("shows the trajectory, every iteration, the last one's diff and the worklog", async () => {
    const live = parseTriples(readData("countries_S1", "graph.txt"), { source: "graph.txt" });
    const { questions } = countryQuestions();
    const result = await runCampaign({ live, questions, runner: createCampaignRunner({ provider: hierarchyModel(), rules: mineGraphRules({ graph: live }) }) });
    const campaign: CampaignDetails = {
      id: "c1",
      graph: "countries",
      baseVersion: 1,
      provider: "replay",
      model: "hierarchy-stand-in",
      isLlm: false,
      status: "finished",
      haltedBecause: result.haltedBecause,
      bestIter: result.bestIter,
      error: null,
      proposalId: "p1",
      questions: questions.length,
      iterations: result.iterations.length,
      overall: result.iterations.at(-1)?.score.overall ?? null,
      createdAt: new Date(0).toISOString(),
      finishedAt: new Date(0).toISOString(),
      config: { iterationCap: 3, thresholds: { target: 80, plateauThreshold: 1, plateauStreak: 3, tieTolerance: 0.5 }, maxActionsPerIteration: 20 },
      questionList: questions,
      iterationList: result.iterations,
      worklog: result.worklog,
    };
    const html = renderToStaticMarkup(createElement(QueryClientProvider, { client: new QueryClient() }, createElement(CampaignView, { initialCampaign: campaign })));
    expect(html).toContain('data-testid="campaign-trajectory"');
    expect(html).toContain(trajectoryText(result.iterations).replace(/→/g, "→"));
    expect(html.match(/class="campaign-row"/g)).toHaveLength(result.iterations.length);
    expect(html).toContain("Sandbox diff");
    expect(html).toContain("+ edge");
    expect(html).toContain("Devil&#x27;s advocate");
    expect(html).toContain('href="/proposals/p1"');
    expect(html.match(/data-testid="worklog-entry"/g)).toHaveLength(result.worklog.length);
    // Reverted or kept: every dot is drawn, the best one larger.
    expect(html.match(/trajectory__dot--/g)).toHaveLength(result.iterations.length);
  });
});
