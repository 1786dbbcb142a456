"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Spinner } from "../ui/states";
import type { CampaignDetails } from "./campaign-api";
import { CAMPAIGN_POLL_MS, campaignKeys, campaignQueryOptions, resumeCampaign, stopCampaign } from "./campaign-api";
import { IterationDetails } from "./iteration-details";
import { TrajectoryChart } from "./trajectory-chart";

/** A campaign: followed every 2 s while it runs; the trajectory, each iteration and the worklog. */
export function CampaignView({ initialCampaign }: { initialCampaign: CampaignDetails }) {
  const client = useQueryClient();
  const query = useQuery({
    ...campaignQueryOptions(initialCampaign.id),
    initialData: initialCampaign,
    refetchInterval: (q) => (q.state.data?.status === "running" ? CAMPAIGN_POLL_MS : false),
  });
  const campaign = query.data;
  const [pinned, setPinned] = useState<number | null>(null);
  const selected = campaign.iterationList.find((i) => i.iter === pinned) ?? campaign.iterationList.at(-1) ?? null;
  const stop = useMutation({
    mutationFn: () => stopCampaign(campaign.id),
    onSettled: () => client.invalidateQueries({ queryKey: campaignKeys.campaign(campaign.id) }),
  });
  const resume = useMutation({
    mutationFn: () => resumeCampaign(campaign.id),
    onSettled: () => client.invalidateQueries({ queryKey: campaignKeys.campaign(campaign.id) }),
  });
  const running = campaign.status === "running";

  return (
    <div className="stack campaign-page" data-testid="campaign-page" data-status={campaign.status}>
      <header className="stack">
        <h1>
          Campaign on <Link href={`/graphs/${encodeURIComponent(campaign.graph)}`}>{campaign.graph}</Link>
        </h1>
        <p className="muted small">
          {campaign.questions} questions · base version {campaign.baseVersion} · {campaign.provider}
          {campaign.isLlm ? "" : " (not an LLM)"} · cap {campaign.config.iterationCap} iterations · target {campaign.config.thresholds.target} · status{" "}
          <strong data-testid="campaign-status">{campaign.status}</strong>
          {campaign.haltedBecause ? ` · halted: ${campaign.haltedBecause.replace(/_/g, " ")}` : ""}
        </p>
      </header>
      {running ? (
        <div className="notice notice--live" role="status">
          <Spinner size={14} />
          <span>
            <strong>Running on the server</strong> in a sandbox: the live graph does not change. Iterations appear as they finish.{" "}
          </span>
          <button type="button" className="button button--secondary" onClick={() => stop.mutate()} disabled={stop.isPending || stop.isSuccess} data-testid="campaign-stop">
            {stop.isPending || stop.isSuccess ? "Stopping…" : "Stop"}
          </button>
        </div>
      ) : null}
      {resume.isError ? (
        <p className="inline-error" role="alert">
          Could not resume it: {resume.error.message}
        </p>
      ) : null}
      {stop.isError ? (
        <p className="inline-error" role="alert">
          Could not stop it: {stop.error.message}
        </p>
      ) : null}
      {campaign.error ? (
        <div className="alert alert--error" role="alert">
          <strong>{campaign.status === "interrupted" ? "Interrupted" : "Error"}</strong>
          <p className="alert__message">{campaign.error}</p>
          {campaign.status === "interrupted" ? (
            <button type="button" className="button" onClick={() => resume.mutate()} disabled={resume.isPending}>
              Resume from iteration {campaign.iterations}
            </button>
          ) : null}
        </div>
      ) : null}
      {campaign.proposalId ? (
        <div className="notice" data-testid="campaign-proposal">
          The best accepted iteration ({campaign.bestIter}) is waiting for review as one proposal: <Link href={`/proposals/${encodeURIComponent(campaign.proposalId)}`}>open proposal</Link>.
        </div>
      ) : !running ? (
        <p className="muted" data-testid="campaign-no-proposal">
          Nothing to propose: no accepted iteration scored above the baseline{campaign.status === "stopped" ? " before the stop" : ""}.
        </p>
      ) : null}
      <section className="card" aria-labelledby="trajectory-title">
        <h2 id="trajectory-title" className="card__title">
          Score trajectory
        </h2>
        {campaign.iterationList.length > 0 ? (
          <TrajectoryChart iterations={campaign.iterationList} bestIter={campaign.bestIter} />
        ) : (
          <p className="muted" data-testid="campaign-no-iterations">
            {running ? "Scoring the baseline…" : `No iteration finished: the campaign ${campaign.status === "stopped" ? "was stopped" : "ended"} while the baseline was being scored.`}
          </p>
        )}
        <table className="table" data-testid="campaign-iterations" hidden={campaign.iterationList.length === 0}>
          <thead>
            <tr>
              <th>iter</th>
              <th>decision</th>
              <th>overall</th>
              <th>band</th>
              <th>applied</th>
              <th>held back</th>
            </tr>
          </thead>
          <tbody>
            {campaign.iterationList.map((it) => (
              <tr key={it.iter} aria-selected={selected?.iter === it.iter} onClick={() => setPinned(it.iter)} className="campaign-row" data-testid="campaign-iteration-row" data-decision={it.decision}>
                <td>
                  <button type="button" className="link-button" onClick={() => setPinned(it.iter)}>
                    {it.iter}
                  </button>
                </td>
                <td>{it.decision}</td>
                <td>{it.score.overall.toFixed(1)}</td>
                <td>{it.score.band}</td>
                <td>{it.actions.length}</td>
                <td>{it.heldBack.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {selected ? (
        <section className="card">
          <IterationDetails iteration={selected} />
        </section>
      ) : null}
      <section className="card" aria-labelledby="worklog-title">
        <h2 id="worklog-title" className="card__title">
          Worklog (append-only)
        </h2>
        {campaign.worklog.length === 0 ? <p className="muted small">Nothing yet: an entry is appended as each iteration finishes.</p> : null}
        <ol className="campaign-worklog small" data-testid="campaign-worklog">
          {campaign.worklog.map((e) => (
            <li key={e.iter} data-testid="worklog-entry" data-decision={e.decision}>
              <span className="mono" title={e.at}>
                {e.at.slice(11, 19)}
              </span>{" "}
              iter {e.iter}: <strong>{e.decision}</strong> {e.overall.toFixed(1)} {e.band} — {e.reasons.join("; ")}
              {e.actions.length ? ` · applied: ${e.actions.length}` : ""}
              {e.heldBack.length ? ` · held back: ${e.heldBack.length}` : ""}
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
