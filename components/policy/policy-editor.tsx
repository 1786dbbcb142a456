"use client";

import { useState } from "react";
import type { ApprovalPolicy, GraphPolicy } from "../api/approval-policy";
import { usePolicy, useUpdatePolicy } from "../api/approval-policy";
import { ConfidenceBadge } from "../proposals/confidence-badge";
import { formatWhen } from "../auth/format-date";
import { useSingleFlight } from "../ui/use-single-flight";

const COUNTS = [
  { key: "requiredHigh", label: "HIGH", hint: "strong evidence found by the review" },
  { key: "requiredMedium", label: "MEDIUM", hint: "plausible, or nothing would change" },
  { key: "requiredLow", label: "LOW", hint: "nothing supports it, or a warning blocks it" },
] as const;

interface PolicyEditorProps {
  graphName: string;
  initialPolicy: GraphPolicy;
  /** Only admins get the form; the server refuses everyone else anyway. */
  isAdmin: boolean;
}

function approvals(n: number): string {
  return `${n} approval${n === 1 ? "" : "s"}`;
}

function describe(policy: ApprovalPolicy): string[] {
  return [
    `HIGH needs ${approvals(policy.requiredHigh)}, MEDIUM ${policy.requiredMedium}, LOW ${policy.requiredLow}, each from a different person.`,
    policy.lowNeedsReason ? "Every LOW approval carries a written reason." : "LOW approvals need no written reason.",
    policy.approverRole === "admin" ? "Only admins approve or reject." : "Reviewers and admins approve or reject.",
    policy.bulkHigh ? "Several HIGH actions may be approved in one click." : "Every action is approved on its own.",
    policy.separateDuties ? "Whoever started the run or submitted the proposal cannot approve it." : "Separation of duties is OFF: people may approve their own proposals.",
  ];
}

/** The graph's approval policy: a form for admins, a plain description for everyone else. */
export function PolicyEditor({ graphName, initialPolicy, isAdmin }: PolicyEditorProps) {
  const { data } = usePolicy(graphName, initialPolicy);
  const update = useUpdatePolicy(graphName);
  const once = useSingleFlight();
  const [draft, setDraft] = useState<ApprovalPolicy>(data.policy);
  const [saved, setSaved] = useState(false);
  const isDirty = JSON.stringify(draft) !== JSON.stringify(data.policy);
  const set = <K extends keyof ApprovalPolicy>(key: K, value: ApprovalPolicy[K]) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [key]: value }));
  };

  return (
    <section className="card policy" aria-labelledby="policy-title" data-testid="policy">
      <div className="policy__head">
        <h2 id="policy-title">Approval policy</h2>
        <p className="muted small">
          {data.isCustom ? `Last changed${data.updatedBy ? ` by ${data.updatedBy}` : ""}${data.updatedAt ? `, ${formatWhen(data.updatedAt)}` : ""}.` : "The defaults: nobody has changed this graph’s policy."} A proposed
          change reaches {graphName} only when it has all the approvals below: the approval that completes them applies it.
        </p>
      </div>
      {data.mode === "solo" ? (
        <p className="notice" role="note" data-testid="policy-mode">
          <strong>Solo mode:</strong> {data.approvers === 1 ? "only one person" : "nobody"} may approve on {graphName} now, so that person may approve their own runs
          and one approval applies; a LOW approval still needs a written reason. The rules below apply as soon as a second person may approve.
        </p>
      ) : (
        <p className="muted small" data-testid="policy-mode">
          Team mode: {data.approvers} people may approve on {graphName}, so the rules below apply.
        </p>
      )}
      {!isAdmin ? (
        <>
          <ul className="policy__summary" data-testid="policy-summary">
            {describe(data.policy).map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <p className="muted small" data-testid="policy-read-only">
            Only admins can change the policy.
          </p>
        </>
      ) : (
        <form
          className="form policy__form"
          onSubmit={(event) => {
            event.preventDefault();
            once(async () => {
              const result = await update.mutateAsync(draft);
              setDraft(result.policy);
              setSaved(true);
            });
          }}
        >
          <fieldset className="policy__group">
            <legend>Approvals needed, by review label</legend>
            <div className="policy__counts">
              {COUNTS.map((c) => (
                <label key={c.key} className="policy__count" htmlFor={`policy-${c.key}`}>
                  <ConfidenceBadge confidence={c.label} />
                  <input
                    id={`policy-${c.key}`}
                    type="number"
                    className="policy__number"
                    min={1}
                    max={10}
                    value={draft[c.key]}
                    onChange={(e) => set(c.key, Math.max(1, Math.min(10, Math.round(Number(e.target.value) || 1))))}
                    data-testid={`policy-${c.key}`}
                  />
                  <span className="muted small">{c.hint}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="policy__group">
            <legend>Who and how</legend>
            <label className="policy__option">
              <span>Who may approve or reject</span>
              <select className="policy__select" value={draft.approverRole} onChange={(e) => set("approverRole", e.target.value === "admin" ? "admin" : "reviewer")} data-testid="policy-approverRole">
                <option value="reviewer">Reviewers and admins</option>
                <option value="admin">Admins only</option>
              </select>
            </label>
            <label className="policy__check">
              <input type="checkbox" checked={draft.lowNeedsReason} onChange={(e) => set("lowNeedsReason", e.target.checked)} data-testid="policy-lowNeedsReason" />
              LOW approvals need a written reason
            </label>
            <label className="policy__check">
              <input type="checkbox" checked={draft.bulkHigh} onChange={(e) => set("bulkHigh", e.target.checked)} data-testid="policy-bulkHigh" />
              Several HIGH actions may be approved in one click
            </label>
            <label className="policy__check">
              <input type="checkbox" checked={draft.separateDuties} onChange={(e) => set("separateDuties", e.target.checked)} data-testid="policy-separateDuties" />
              Separation of duties: whoever started the run or submitted the proposal cannot approve it
            </label>
            {!draft.separateDuties ? (
              <p className="notice notice--warning small" role="note">
                Off: one person can propose and approve their own change. Meant for a one-person install; the change is recorded in the audit log.
              </p>
            ) : null}
          </fieldset>
          {update.error ? (
            <p className="inline-error" role="alert">
              Could not save: {update.error.message}
            </p>
          ) : null}
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={!isDirty || update.isPending} data-testid="policy-save">
              Save policy
            </button>
            <button type="button" className="button" disabled={!isDirty} onClick={() => setDraft(data.policy)}>
              Discard changes
            </button>
            {saved && !isDirty ? (
              <span className="small" role="status" data-testid="policy-saved">
                Saved. Pending actions are counted against the new policy.
              </span>
            ) : null}
          </div>
        </form>
      )}
    </section>
  );
}
