/** Every React Query key of the API, hierarchical so one prefix invalidates a subtree. */
export const graphKeys = {
  all: ["graphs"] as const,
  graph: (name: string) => ["graphs", name] as const,
  hubs: (name: string, options: { limit: number }) => ["graphs", name, "hubs", options] as const,
  search: (name: string, q: string) => ["graphs", name, "search", { q }] as const,
  node: (name: string, nodeId: string) => ["graphs", name, "nodes", nodeId] as const,
  neighbourhood: (name: string, nodeId: string, options: { depth: number }) =>
    ["graphs", name, "nodes", nodeId, "neighbourhood", options] as const,
  questionsAll: (name: string) => ["graphs", name, "questions"] as const,
  questions: (name: string, options: { status: "pending" | "all" }) => ["graphs", name, "questions", options] as const,
  runs: (name: string) => ["graphs", name, "runs"] as const,
  asks: (name: string) => ["graphs", name, "asks"] as const,
  loopSettings: (name: string) => ["graphs", name, "loop-settings"] as const,
  versions: (name: string) => ["graphs", name, "versions"] as const,
  diff: (name: string, range: { from: number; to: number }) => ["graphs", name, "diff", range] as const,
};

export const runKeys = {
  all: ["runs"] as const,
  run: (id: string) => ["runs", id] as const,
};

export const askKeys = {
  all: ["asks"] as const,
  ask: (id: string) => ["asks", id] as const,
  /** The answer a run's answerable step gives; keyed by status so it is fetched again when the run ends. */
  runAnswer: (runId: string, status: string) => ["runs", runId, "answer", { status }] as const,
  askAgain: (proposalId: string) => ["proposals", "detail", proposalId, "ask-again"] as const,
};

export const providerKeys = {
  current: ["provider"] as const,
};

export type ProposalListFilter = { status?: "pending" | "applied" | "partially_applied" | "rejected"; graph?: string };

export const proposalKeys = {
  all: ["proposals"] as const,
  lists: () => ["proposals", "list"] as const,
  list: (filter: ProposalListFilter) => ["proposals", "list", filter] as const,
  /** The review queue: every proposal, reduced to one row per action. */
  queue: () => ["proposals", "list", "queue"] as const,
  proposal: (id: string) => ["proposals", "detail", id] as const,
  preview: (id: string, actions: number[]) => ["proposals", "detail", id, "preview", { actions }] as const,
};
