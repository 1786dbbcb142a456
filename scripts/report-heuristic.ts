/**
 * `npm run report:heuristic`: the heuristic provider's answerability verdicts over the MuSiQue
 * questions (../shared/data/musique), run through the real hop loop: how often it says Yes, at
 * which step, and how often a gold answer was in the retrieved triples at each hop. Printed as
 * a markdown table for the README. Deterministic: the same data gives the same figures.
 */
import { normalizeLabel } from "../lib/graph/normalize";
import { runHopLoop } from "../lib/loop/run-hop-loop";
import { createHeuristicProvider } from "../lib/providers/heuristic";
import { documentLoader, musique } from "../lib/loop/test-support";

async function main(): Promise<void> {
  const bundle = musique();
  const provider = createHeuristicProvider();
  const loadDocuments = documentLoader(bundle.graph, bundle.documents);
  const yesAt = [0, 0, 0, 0];
  const goldAt = [0, 0, 0, 0];
  const reached = [0, 0, 0, 0];
  let neverYes = 0;
  let earlyExits = 0;
  let withActions = 0;
  let actions = 0;
  const byType: Record<string, number> = {};
  const started = performance.now();
  for (const q of bundle.questions) {
    const trace = await runHopLoop({ graph: bundle.graph, question: q.question, queryId: q.id ?? "", provider, loadDocuments });
    const gold = (q.answers ?? []).map(normalizeLabel);
    trace.steps.forEach((step, i) => {
      reached[i] = (reached[i] ?? 0) + 1;
      const hit = step.triples.some((t) => gold.some((g) => normalizeLabel(t.subject).includes(g) || normalizeLabel(t.object).includes(g)));
      if (hit) goldAt[i] = (goldAt[i] ?? 0) + 1;
    });
    const yes = trace.steps.findIndex((s) => s.answerable);
    if (yes >= 0) yesAt[yes] = (yesAt[yes] ?? 0) + 1;
    else neverYes++;
    if (trace.earlyExit) earlyExits++;
    if (trace.actions.length > 0) withActions++;
    actions += trace.actions.length;
    for (const a of trace.actions) byType[a.type] = (byType[a.type] ?? 0) + 1;
  }
  const n = bundle.questions.length;
  console.log(`MuSiQue, ${n} questions, heuristic provider (not an LLM), ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  console.log("| step | runs reaching it | judged Yes here | gold answer in retrieved triples |");
  console.log("|---|---|---|---|");
  for (let i = 0; i < 4; i++) console.log(`| ${i + 1} | ${reached[i]} | ${yesAt[i]} | ${goldAt[i]} of ${reached[i]} |`);
  console.log(`\nnever answerable within 4 steps: ${neverYes}; early exits (Yes at step 1): ${earlyExits}; runs with proposed actions: ${withActions} (${actions} actions: ${Object.entries(byType).map(([t, n]) => `${n} ${t}`).join(", ") || "none"})`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
