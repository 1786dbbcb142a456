/**
 * `deeprefine` with a Refinery server (issue #16): the skill's review and apply submit the
 * refinement file as a proposal to the team's review queue instead of touching graph.json;
 * people approve it in the browser; `deeprefine status` shows their decisions and `deeprefine
 * pull` writes the approved version into graphify-out/graph.json.
 *
 *   --server URL  (or REFINERY_URL)    the Refinery server
 *   --token T     (or REFINERY_TOKEN)  an API token with the propose scope (status and pull need read)
 *   --graph NAME  (or REFINERY_GRAPH)  the graph's name there (default: the project folder's name)
 *   --agent, --model (or REFINERY_AGENT, REFINERY_MODEL)  which agent and model submit (shown in the queue)
 *
 * Entries of the refinement file that do not parse are submitted too: the server stores them LOW
 * with the parse error as their warning (reviewed like any other, never dropped).
 *
 * What was submitted is remembered in graphify-out/.deeprefine/server.json (server, graph and
 * proposal ids; never the token).
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { AppError, isAppError } from "../../lib/errors";
import type { ErrorCode } from "../../lib/errors";
import { formatAction } from "../../lib/loop/parse-output";
import type { RefinementAction } from "../../lib/loop/types";
import { UsageError, printJson } from "../output";
import type { Context, ProjectPaths, RootOptions } from "./project";
import { failWith, projectPaths, readText, readTraceFile, resolveInput, rootOptions, writeFileAtomic } from "./project";
import { parseRefinementFile } from "./run-review";

export interface ServerOptions {
  server?: string;
  token?: string;
  graph?: string;
  agent?: string;
  model?: string;
}

interface Target {
  url: string;
  token: string;
  graph: string;
}

interface ServerState {
  server: string;
  graph: string;
  proposals: { id: string; submittedAt: string; refinementFile: string; actions: number }[];
}

/** Adds --server / --token / --graph to a command. */
export function serverOptions(cmd: Command): Command {
  return cmd
    .option("--server <url>", "submit to a Refinery server's review queue instead of changing graph.json (or REFINERY_URL)")
    .option("--token <token>", "API token for --server (or REFINERY_TOKEN)")
    .option("--graph <name>", "the graph's name on the server (or REFINERY_GRAPH; default: the project folder's name)")
    .option("--agent <name>", "which agent submits, shown in the queue (or REFINERY_AGENT; default: DeepRefine)")
    .option("--model <name>", "which model the agent runs on, shown in the queue (or REFINERY_MODEL)");
}

/** The server to talk to, or null when neither --server nor REFINERY_URL is given. */
export function serverTarget(opts: ServerOptions, paths: ProjectPaths, env: NodeJS.ProcessEnv = process.env): Target | null {
  const url = (opts.server ?? env.REFINERY_URL)?.trim();
  if (!url) return null;
  if (!/^https?:\/\//i.test(url)) throw new UsageError(`--server must be an http(s) URL, got ${JSON.stringify(url)}`);
  const token = (opts.token ?? env.REFINERY_TOKEN)?.trim();
  if (!token) throw new UsageError("--server needs --token or REFINERY_TOKEN: an API token (rfy_…) made on the server's Account page, with the propose scope");
  const graph = (opts.graph ?? env.REFINERY_GRAPH)?.trim() || path.basename(paths.root);
  return { url: url.replace(/\/+$/, ""), token, graph };
}

async function call<T>(target: Target, method: "GET" | "POST", route: string, body?: unknown): Promise<{ value: T; headers: Headers; text: string }> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${target.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    throw new AppError("INTERNAL", `cannot reach ${target.url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const text = await response.text();
  if (!response.ok) {
    let code: ErrorCode = "INTERNAL";
    let message = `${method} ${route} answered ${response.status}`;
    try {
      const parsed = JSON.parse(text) as { error?: { code?: ErrorCode; message?: string } };
      if (parsed.error?.code) code = parsed.error.code;
      if (parsed.error?.message) message = `the server says: ${parsed.error.message}`;
    } catch {
      // not JSON: keep the status line
    }
    throw new AppError(code, message);
  }
  const isJson = (response.headers.get("content-type") ?? "").includes("json");
  return { value: (isJson && !route.endsWith("/export") ? JSON.parse(text) : null) as T, headers: response.headers, text };
}

function stateFile(paths: ProjectPaths): string {
  return path.join(paths.state, "server.json");
}

function readState(paths: ProjectPaths): ServerState | null {
  try {
    return JSON.parse(fs.readFileSync(stateFile(paths), "utf8")) as ServerState;
  } catch {
    return null;
  }
}

function rememberProposal(paths: ProjectPaths, target: Target, entry: ServerState["proposals"][number]): void {
  const old = readState(paths);
  const state: ServerState = { server: target.url, graph: target.graph, proposals: [...(old && old.server === target.url && old.graph === target.graph ? old.proposals : []), entry] };
  fs.mkdirSync(paths.state, { recursive: true });
  writeFileAtomic(stateFile(paths), `${JSON.stringify(state, null, 2)}\n`);
}

interface ProposalAnswer {
  id: string;
  status: string;
  baseVersion: number;
  counts: Record<string, number>;
  actions: { index: number; action: RefinementAction; review?: { text: string; warnings: { code: string; message: string }[] }; confidence: string; status: string; approvals?: unknown[] }[];
}

/** The action as people read it: an unparseable entry's raw text (its stored action is a placeholder). */
function actionText(a: ProposalAnswer["actions"][number]): string {
  return a.review?.text ?? formatAction(a.action);
}

/** `review` / `apply` with --server: submit the refinement file as one proposal. */
export async function submitToServer(
  ctx: Context,
  target: Target,
  paths: ProjectPaths,
  opts: RootOptions & Pick<ServerOptions, "agent" | "model"> & { refinementFile: string; traceFile?: string; json?: boolean },
  mode: "review" | "apply",
): Promise<void> {
  const file = resolveInput(opts.refinementFile, paths, ctx.cwd);
  const text = readText(file);
  if (!text.trim()) failWith(ctx, [`${file}: empty; provide --refinement-file with a <refinement>...</refinement> block`]);
  const inputs = parseRefinementFile(text, file);
  if (inputs.inputs.length === 0) failWith(ctx, [`${file}: no actions to submit`]);
  const question = opts.traceFile ? readTraceFile(resolveInput(opts.traceFile, paths, ctx.cwd)).trace.question : undefined;
  const agent = (opts.agent ?? process.env.REFINERY_AGENT)?.trim() || "DeepRefine";
  const model = (opts.model ?? process.env.REFINERY_MODEL)?.trim();
  const { value: proposal } = await call<ProposalAnswer>(target, "POST", "/api/proposals", {
    graph: target.graph,
    actions: inputs.actions,
    ...(inputs.unparseable.length > 0 ? { unparseable: inputs.unparseable } : {}),
    ...(question ? { question } : {}),
    agent,
    ...(model ? { model } : {}),
  });
  rememberProposal(paths, target, { id: proposal.id, submittedAt: ctx.now().toISOString(), refinementFile: file, actions: inputs.inputs.length });
  const url = `${target.url}/proposals/${proposal.id}`;
  if (opts.json) {
    printJson(ctx.io, { proposal_id: proposal.id, url, graph: target.graph, base_version: proposal.baseVersion, labels: proposal.actions.map((a) => a.confidence) });
    return;
  }
  ctx.io.out(`Submitted for review: ${url}`);
  for (const a of proposal.actions) ctx.io.out(`  ${a.index + 1}. ${a.confidence.padEnd(6)} ${actionText(a)}`);
  ctx.io.out(
    mode === "apply"
      ? "graph.json is not changed: people approve on the server. Run `deeprefine status` to see their decisions and `deeprefine pull` to write the approved version."
      : "No graph changes applied. People decide on the server; `deeprefine status` shows their decisions.",
  );
}

function lastProposal(ctx: Context, paths: ProjectPaths, given?: string): string {
  if (given) return given;
  const state = readState(paths);
  const last = state?.proposals.at(-1);
  if (!last) failWith(ctx, ["no proposal submitted from this project yet: use `deeprefine review --server …` first, or pass --proposal ID"]);
  return last.id;
}

function targetFor(ctx: Context, opts: RootOptions & ServerOptions): { target: Target; paths: ProjectPaths } {
  const paths = projectPaths(opts, ctx.cwd);
  const state = readState(paths);
  const target = serverTarget({ server: opts.server ?? state?.server, token: opts.token, graph: opts.graph ?? state?.graph }, paths);
  if (!target) throw new UsageError("give --server URL (or REFINERY_URL), or submit from this project first");
  return { target, paths };
}

export function registerServerCommands(program: Command, ctx: Context): void {
  const { io } = ctx;
  serverOptions(rootOptions(program.command("status").description("the decisions on a proposal submitted with --server (default: the last one)")))
    .option("--proposal <id>", "the proposal (default: the last one submitted from this project)")
    .option("--json", "machine-readable output")
    .action(async (opts: RootOptions & ServerOptions & { proposal?: string; json?: boolean }) => {
      const { target, paths } = targetFor(ctx, opts);
      const id = lastProposal(ctx, paths, opts.proposal);
      const { value: p } = await call<ProposalAnswer>(target, "GET", `/api/proposals/${encodeURIComponent(id)}`);
      if (opts.json) return printJson(io, { proposal_id: p.id, status: p.status, actions: p.actions.map((a) => ({ action: actionText(a), confidence: a.confidence, status: a.status })) });
      io.out(`Proposal ${p.id} on ${target.graph}: ${p.status}  (${target.url}/proposals/${p.id})`);
      for (const a of p.actions) io.out(`  ${a.index + 1}. ${a.status.padEnd(9)} ${a.confidence.padEnd(6)} ${actionText(a)}`);
      if (p.actions.some((a) => a.status === "applied")) io.out("Approved changes are on the server: `deeprefine pull` writes them into graph.json.");
    });

  serverOptions(rootOptions(program.command("pull").description("write the server's current version of the graph into graphify-out/graph.json once a submitted proposal has been applied")))
    .option("--proposal <id>", "the proposal to wait for (default: the last one submitted)")
    .option("--force", "write the server's version even if nothing of the proposal was applied")
    .option("--json", "machine-readable output")
    .action(async (opts: RootOptions & ServerOptions & { proposal?: string; force?: boolean; json?: boolean }) => {
      const { target, paths } = targetFor(ctx, opts);
      if (!opts.force) {
        const id = lastProposal(ctx, paths, opts.proposal);
        const { value: p } = await call<ProposalAnswer>(target, "GET", `/api/proposals/${encodeURIComponent(id)}`);
        if (!p.actions.some((a) => a.status === "applied")) {
          failWith(ctx, [`proposal ${p.id} has no applied change yet (${p.status}; ${p.actions.map((a) => a.status).join(", ")}): graph.json is unchanged. Pass --force to pull the server's version anyway.`]);
        }
      }
      let exported: { text: string; headers: Headers };
      try {
        exported = await call<null>(target, "GET", `/api/graphs/${encodeURIComponent(target.graph)}/export`);
      } catch (error) {
        if (isAppError(error) && error.code === "NOT_FOUND") failWith(ctx, [`the server has no graph named ${JSON.stringify(target.graph)}: pass --graph`]);
        throw error;
      }
      const version = exported.headers.get("x-refinery-version");
      writeFileAtomic(paths.graph, exported.text);
      if (opts.json) return printJson(io, { graph: paths.graph, version: version === null ? null : Number(version) });
      io.out(`Wrote ${paths.graph}: version ${version ?? "?"} of ${target.graph} from ${target.url}`);
    });
}
