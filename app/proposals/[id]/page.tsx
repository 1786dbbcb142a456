import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ProposalDetails } from "@/components/api/proposal-types";
import type { RunDetails } from "@/components/api/run-types";
import { ProposalView } from "@/components/proposals/proposal-view";
import { isAppError } from "@/lib/errors";
import { getGraphRecord } from "@/lib/server/graphs/graph-store";
import { getProposal } from "@/lib/server/proposals/proposals";
import { getRun } from "@/lib/server/runs/runs";
import { findNodeNames } from "@/lib/server/graphs/find-node-names";
import type { NodeNames } from "@/lib/server/graphs/find-node-names";
import { getCalibration } from "@/lib/server/proposals/review-calibration";
import type { GraphCalibration } from "@/components/api/calibration";
import "../../styles/review.css";
import "../../styles/review-dialogs.css";
import "../../styles/proposal.css";
import "../../styles/proposal-actions.css";
import "../../styles/calibration.css";
import "../../styles/node-name.css";
import { requirePageActor } from "@/app/_lib/page-actor";
import { toDecider } from "@/components/proposals/decision-rules";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

interface ProposalPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ edit?: string | string[] }>;
}

async function orNull<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export async function generateMetadata({ params }: ProposalPageProps): Promise<Metadata> {
  return { title: `Proposal ${(await params).id}` };
}

/** Every node the page may name: what each action resolved to, and the candidates of ambiguous names. */
function nodeIdsOf(proposal: ProposalDetails): string[] {
  const ids: string[] = [];
  for (const a of proposal.actions) {
    for (const r of Object.values(a.review.resolved)) {
      if (r?.nodeId) ids.push(r.nodeId);
      if (r && r.status !== "exact") ids.push(...r.candidates.map((c) => c.id));
    }
    for (const w of a.review.warnings) ids.push(...(w.candidates ?? []).map((c) => c.id));
  }
  return ids;
}

/** The proposal with every review, the run behind it and the graph's current version, in one render. */
export default async function ProposalPage({ params, searchParams }: ProposalPageProps) {
  const actor = await requirePageActor();
  // Typed as the components' copies: the compiler checks the two still agree.
  const proposal: ProposalDetails | null = await orNull(getProposal((await params).id));
  if (!proposal) notFound();
  const [run, graph, calibration]: [RunDetails | null, { currentVersion: number } | null, GraphCalibration | null] = await Promise.all([
    proposal.runId ? orNull(getRun(proposal.runId)) : Promise.resolve(null),
    orNull(getGraphRecord(proposal.graph)),
    orNull(getCalibration({ graph: proposal.graph })),
  ]);
  const names: NodeNames = graph ? ((await orNull(findNodeNames({ graph: proposal.graph, ids: nodeIdsOf(proposal) }))) ?? []) : [];
  const edit = Number((await searchParams).edit);
  return (
    <ProposalView
      initialProposal={proposal}
      run={run}
      currentVersion={graph?.currentVersion ?? null}
      editIndex={Number.isInteger(edit) && edit >= 0 ? edit : null}
      viewer={toDecider(actor)}
      calibration={calibration}
      nodeNames={names}
    />
  );
}
