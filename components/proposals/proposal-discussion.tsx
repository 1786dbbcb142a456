"use client";

import { useState } from "react";
import type { Actor } from "@/lib/auth/permissions";
import { can } from "@/lib/auth/permissions";
import type { ProposalActionItem } from "../api/proposal-types";
import type { TimelineEvent } from "../api/proposal-discussion";
import { useCreateComment, useTimeline } from "../api/proposal-discussion";
import { formatWhen } from "../auth/format-date";
import { useSingleFlight } from "../ui/use-single-flight";

const KIND_TEXT: Record<TimelineEvent["kind"], string> = {
  run: "run",
  submit: "proposed",
  approve: "approved",
  reject: "vetoed",
  withdraw: "withdrew",
  dismiss: "dismissed",
  comment: "comment",
  edit: "edited",
  rereview: "reviewed again",
  apply: "applied",
  revert: "reverted",
};

/** The proposal's timeline (who ran, proposed, decided, commented, applied) and the comment box. */
export function ProposalDiscussion({ proposalId, actions, actor }: { proposalId: string; actions: ProposalActionItem[]; actor: Actor | null }) {
  const timeline = useTimeline(proposalId);
  const create = useCreateComment(proposalId);
  const once = useSingleFlight();
  const [body, setBody] = useState("");
  const [target, setTarget] = useState("");
  const mayComment = actor !== null && can(actor, "propose");
  return (
    <section className="card discussion" aria-labelledby="discussion-title" data-testid="discussion">
      <h2 id="discussion-title" className="card__title">
        Timeline and discussion
      </h2>
      {timeline.isError ? <p className="inline-error">Could not load the timeline: {timeline.error.message}</p> : null}
      <ol className="timeline" data-testid="timeline">
        {(timeline.data ?? []).map((e, i) => (
          <li key={i} className={`timeline__event timeline__event--${e.kind}`} data-testid="timeline-event" data-kind={e.kind}>
            <span className="timeline__when muted small">{formatWhen(e.at)}</span>
            <span className="timeline__kind">{KIND_TEXT[e.kind]}</span>
            <span className="timeline__text">
              <strong>{e.who}</strong> {e.kind === "comment" ? <span className="timeline__comment">{e.text}</span> : e.text}
            </span>
          </li>
        ))}
      </ol>
      {mayComment ? (
        <form
          className="form discussion__form"
          onSubmit={(event) => {
            event.preventDefault();
            const text = body.trim();
            if (!text) return;
            once(async () => {
              await create.mutateAsync({ body: text, ...(target !== "" ? { action: Number(target) } : {}) });
              setBody("");
            });
          }}
        >
          <div className="field">
            <label htmlFor="comment-body">Comment</label>
            <textarea id="comment-body" className="textarea" rows={2} maxLength={5000} value={body} onChange={(e) => setBody(e.target.value)} data-testid="comment-body" />
          </div>
          <div className="row row--wrap">
            <label className="small" htmlFor="comment-target">
              On
            </label>
            <select id="comment-target" className="select select--small" value={target} onChange={(e) => setTarget(e.target.value)} data-testid="comment-target">
              <option value="">the whole proposal</option>
              {actions.map((a) => (
                <option key={a.index} value={String(a.index)}>
                  action {a.index + 1}
                </option>
              ))}
            </select>
            <button type="submit" className="button button--small" disabled={create.isPending || body.trim() === ""} data-testid="comment-submit">
              Comment
            </button>
          </div>
          {create.error ? <p className="inline-error">Could not comment: {create.error.message}</p> : null}
        </form>
      ) : (
        <p className="muted small">Viewers read the discussion; reviewers and admins can comment.</p>
      )}
    </section>
  );
}
