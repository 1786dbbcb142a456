/**
 * Test support: a throw-away copy of the real httpx graphify project (graph.json plus the raw/
 * sources its nodes point at, and graphify memory files), a hand-written agent trace made of
 * real triples of that graph, and an in-process runner for `deeprefine`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { dataPath } from "../../lib/test/data";
import { queryIdOf } from "../../lib/questions/query-id";
import { main } from "./main";

export const ORIGINAL_GRAPH = fs.readFileSync(dataPath("graphify", "httpx", "graph.json"));

export interface Project {
  root: string;
  graphFile: string;
  state: string;
  cleanup: () => void;
}

export function createProject(): Project {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "deeprefine-"));
  fs.mkdirSync(path.join(root, "graphify-out", "memory"), { recursive: true });
  fs.writeFileSync(path.join(root, "graphify-out", "graph.json"), ORIGINAL_GRAPH);
  fs.cpSync(dataPath("graphify", "httpx", "raw"), path.join(root, "raw"), { recursive: true });
  const memory = path.join(root, "graphify-out", "memory");
  fs.writeFileSync(path.join(memory, "query_20260101_a.md"), '---\nquestion: "How does Client send a request?"\ncontributor: graphify\n---\n\n# Q: ignored heading\n');
  fs.writeFileSync(path.join(memory, "query_20260102_b.md"), "Notes from a session.\n\n# Q: Which exceptions can BaseClient raise?\n");
  fs.writeFileSync(path.join(memory, "query_20260103_c.md"), "---\ntitle: no question here\n---\n");
  fs.writeFileSync(path.join(memory, "notes.md"), "# Q: not a query_ file\n");
  return {
    root,
    graphFile: path.join(root, "graphify-out", "graph.json"),
    state: path.join(root, "graphify-out", ".deeprefine"),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

/** A fixed local time, so the results file name is known: refinement_results_20260131.jsonl. */
export const NOW = new Date(2026, 0, 31, 12, 0, 0);

export interface RunResult {
  code: number;
  out: string;
  err: string;
}

export async function run(project: Project, ...argv: string[]): Promise<RunResult> {
  let out = "";
  let err = "";
  const code = await main(
    argv,
    { out: (t) => (out += t.endsWith("\n") ? t : `${t}\n`), err: (t) => (err += t.endsWith("\n") ? t : `${t}\n`) },
    { cwd: project.root, now: () => NOW },
  );
  return { code, out, err };
}

export const QUESTION = "Which transport does Client use to send a request?";
export const QUERY_ID = queryIdOf(QUESTION);

type T = [string, string, string];
const triple = ([subject, relation, object]: T) => ({ subject, relation, object });

/** Step 1 says No, step 2 (a k-hop expansion) says Yes: abduction and refinement follow. */
export const STEP1: T[] = [
  ["client.py", "contains", "Client"],
  ["Client", "method", ".send()"],
  ["Client", "inherits", "BaseClient"],
];
export const STEP2: T[] = [
  ["Client", "uses", "HTTPTransport"],
  ["Client", "uses", "BaseTransport"],
  ["Client", "uses", "InvalidURL"],
  ["Client", "method", ".request()"],
  ["BaseClient", "uses", "HTTPTransport"],
];

export function traceJson({ step1 = STEP1, step2 = STEP2, constants }: { step1?: T[]; step2?: T[]; constants?: Record<string, unknown> } = {}) {
  return {
    schema_version: 1,
    mode: "agent-loop",
    query: QUESTION,
    query_id: QUERY_ID,
    constants: constants ?? { max_hops: 4, increment_hop: 1, base_top_k: 10, max_triple_num_by_step: [5, 10, 15, 20], history_horizon_size: 4 },
    interaction_history: [
      {
        step: 1,
        num_hops: 0,
        base_top_k: 10,
        query: QUESTION,
        retrieval: { method: "graphify_query", evidence: `graphify query "${QUESTION}" → NODE Client [src=client.py loc=L70] …` },
        retrieved_subgraph: step1.map(triple),
        answerable: false,
        judgement_raw: "<judge>No</judge>",
      },
      {
        step: 2,
        num_hops: 1,
        base_top_k: 10,
        query: QUESTION,
        retrieval: { method: "k_hop_expansion", evidence: "1-hop neighbours of Client, BaseClient, .send() in graphify-out/graph.json" },
        retrieved_subgraph: step2.map(triple),
        answerable: true,
        judgement_raw: "<judge>Yes</judge>",
      },
    ],
    error_abduction_reason: "Client's use of HTTPTransport is only a generic 'uses' edge; the call that creates the transport is missing.",
    error_abduction_raw:
      "<abduction>Client's use of HTTPTransport is only a generic 'uses' edge; the call that creates the transport is missing.</abduction>",
    refinement_action_file: `graphify-out/.deeprefine/refinement_actions_${QUERY_ID}.txt`,
    early_exit: false,
  };
}

export function writeTrace(project: Project, value: unknown, name = `loop_trace_${QUERY_ID}.json`): string {
  const file = path.join(project.state, name);
  fs.mkdirSync(project.state, { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
  return file;
}

export function writeRefinement(project: Project, actions: string, name = `refinement_actions_${QUERY_ID}.txt`): string {
  const file = path.join(project.state, name);
  fs.mkdirSync(project.state, { recursive: true });
  fs.writeFileSync(file, `<refinement>${actions}</refinement>\n`);
  return file;
}

export function readGraph(project: Project): Buffer {
  return fs.readFileSync(project.graphFile);
}
