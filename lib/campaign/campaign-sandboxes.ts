/**
 * Where a campaign's sandboxes read the base version. In memory (`memorySandboxes`) a sandbox is
 * a SandboxGraph over the live graph and pure code reads it directly. On the server, for graphs
 * retrieved through SQL (lib/server/campaigns/sql-campaign.ts), no instance holds the version: a
 * sandbox is only its changeset, and each read runs on a SandboxGraph over a partial graph of the
 * version fetched until the read misses nothing. runCampaign reads sandboxes only through this
 * (planning, scoring) and hands them to its runner, which knows which kind it gets.
 */
import type { Changeset } from "../changes/changeset";
import type { KnowledgeGraph } from "../graph/model";
import { SandboxGraph } from "./sandbox-graph";

/** What every sandbox is: the changes over the base version. */
export interface CampaignSandbox {
  readonly changeset: Changeset;
}

export interface CampaignSandboxes<S extends CampaignSandbox> {
  /** The sandbox of `previous`'s changes (none: the base) followed by `changeset`; throws CONFLICT when they do not apply. */
  create(changeset: Changeset, previous?: S): Promise<S>;
  /** Run pure code on the sandbox's graph and the base version's (both complete for what it reads). */
  read<T>(sandbox: S, run: (graph: SandboxGraph, base: KnowledgeGraph) => T): Promise<T>;
}

/** Sandboxes over a graph held in memory. */
export function memorySandboxes(live: KnowledgeGraph): CampaignSandboxes<SandboxGraph> {
  return {
    create: async (changeset, previous) => (previous ? previous.withChanges(changeset) : new SandboxGraph(live, changeset)),
    read: async (sandbox, run) => run(sandbox, sandbox.live),
  };
}
