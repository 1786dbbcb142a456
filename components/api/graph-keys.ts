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
};

export const runKeys = {
  all: ["runs"] as const,
  run: (id: string) => ["runs", id] as const,
};

export const providerKeys = {
  current: ["provider"] as const,
};
