import { importGraphFromPath } from "../lib/server/import-graph.ts";
import { loadGraph } from "../lib/server/graph-store.ts";
const t0 = performance.now();
const r = await importGraphFromPath({ path: process.argv[2]!, name: process.argv[3] });
const t1 = performance.now();
console.log(JSON.stringify(r).slice(0, 400), "import ms", (t1 - t0).toFixed(0), "rss MB", (process.memoryUsage().rss / 1e6).toFixed(0));
const g = await loadGraph(r.graph.name);
console.log("load ms", (performance.now() - t1).toFixed(0), g.graph.nodes.size, g.graph.edges.size);
