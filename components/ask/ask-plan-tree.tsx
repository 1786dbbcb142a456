import type { AskTrace, PlanStep } from "../api/ask-types";
import { formatPlanStep, planChildren } from "./ask-format";

const SHOWN_ANSWERS = 6;

/**
 * The plan as a tree: the last sub-problem is the root, each one's children are the answer sets
 * it builds on (h=Ans1, Intersect(Ans1, Ans2)). Every node shows what it found.
 */
export function AskPlanTree({ trace }: { trace: AskTrace }) {
  const byId = new Map(trace.plan.map((s) => [s.id, s]));
  const used = new Set(trace.plan.flatMap(planChildren));
  // Roots: steps nothing else builds on (normally just the last one).
  const roots = trace.plan.filter((s) => !used.has(s.id));
  if (trace.plan.length === 0) {
    const searchedCorpus = trace.calls.some((c) => c.tool === "web_search");
    return (
      <p className="muted small" data-testid="ask-no-plan">
        {trace.planText.trim() && trace.isLlm !== false
          ? "The plan could not be read as sub-problems; it is shown as written below."
          : `No sub-problem over the graph${trace.think.trim() ? `: ${trace.think.trim().replace(/^\[[^\]]*\]\s*/, "").replace(/\.$/, "")}` : ""}${searchedCorpus ? "; the corpus was searched instead" : ""}.`}
      </p>
    );
  }
  return (
    <ul className="plan-tree" data-testid="ask-plan">
      {roots.map((s) => (
        <PlanNode key={s.id} step={s} byId={byId} trace={trace} seen={new Set()} />
      ))}
    </ul>
  );
}

function PlanNode({ step, byId, trace, seen }: { step: PlanStep; byId: Map<string, PlanStep>; trace: AskTrace; seen: Set<string> }) {
  const found = trace.stepAnswers[step.id] ?? [];
  const calls = trace.calls.filter((c) => c.planStep === step.id).length;
  const children = planChildren(step);
  const inner = new Set([...seen, step.id]);
  return (
    <li className="plan-tree__node" data-testid="plan-step" data-step={step.id}>
      <div className="plan-tree__head">
        <span className="plan-tree__id mono">{step.id}</span>
        <code className="plan-tree__expr">{formatPlanStep(step)}</code>
      </div>
      <div className="plan-tree__found small">
        {found.length === 0 ? (
          <span className="muted">found nothing</span>
        ) : (
          <>
            <span className="muted">{found.length === 1 ? "1 entity:" : `${found.length} entities:`} </span>
            {found.slice(0, SHOWN_ANSWERS).map((a) => a.label).join(", ")}
            {found.length > SHOWN_ANSWERS ? <span className="muted">, … {found.length - SHOWN_ANSWERS} more</span> : null}
          </>
        )}
        {calls > 0 ? <span className="muted"> · {calls === 1 ? "1 tool call" : `${calls} tool calls`}</span> : null}
      </div>
      {children.length > 0 ? (
        <ul className="plan-tree__children">
          {children.map((id) => {
            const child = byId.get(id);
            // A reference to an unknown step, or a cycle, is shown as text rather than recursed into.
            if (!child || inner.has(id)) {
              return (
                <li key={id} className="plan-tree__node plan-tree__node--missing small muted">
                  {id}: {child ? "(refers back to itself)" : "not a step of the plan"}
                </li>
              );
            }
            return <PlanNode key={id} step={child} byId={byId} trace={trace} seen={inner} />;
          })}
        </ul>
      ) : null}
    </li>
  );
}
