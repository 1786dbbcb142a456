/** Every React Query key of the graph API, hierarchical so one prefix invalidates a subtree. */
export const graphKeys = {
  all: ["graphs"] as const,
  graph: (name: string) => ["graphs", name] as const,
  hubs: (name: string, options: { limit: number }) => ["graphs", name, "hubs", options] as const,
  search: (name: string, q: string) => ["graphs", name, "search", { q }] as const,
  node: (name: string, nodeId: string) => ["graphs", name, "nodes", nodeId] as const,
  neighbourhood: (name: string, nodeId: string, options: { depth: number }) =>
    ["graphs", name, "nodes", nodeId, "neighbourhood", options] as const,
};
