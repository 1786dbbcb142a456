/**
 * The readable names of the nodes a page shows (a proposal's actions, a run's triples): label,
 * plus what tells it apart where another node shares the label. Computed on the graph's current
 * version; a node that is gone since keeps the name the caller already had.
 */
import type { DisplayName } from "../../graph/display-names";
import { findDisplayName } from "../../graph/display-names";
import { findDocuments, loadGraph } from "./graph-store";

export type { DisplayName };

/** Display names, one per node (a list, not an object keyed by id: ids may be "__proto__"). */
export type NodeNames = DisplayName[];

/** Past this the page shows labels without the "which one" hint rather than wait. */
const MAX_IDS = 2_000;

export async function findNodeNames(options: { graph: string; ids: Iterable<string> }): Promise<NodeNames> {
  const loaded = await loadGraph(options.graph);
  const ids = [...new Set(options.ids)].slice(0, MAX_IDS);
  const twinFiles = new Set<string>();
  // A Map: ids are hostile text ("__proto__" is a key like any other).
  const names = new Map<string, DisplayName>();
  for (const id of ids) {
    const name = findDisplayName({ graph: loaded.graph, id });
    if (!name) continue;
    names.set(id, name);
    const file = loaded.graph.getNode(id)?.sourceFile;
    if (name.secondary !== null && file) twinFiles.add(file);
  }
  if (twinFiles.size === 0) return [...names.values()];
  // Passages have titles; a file's path already is its name.
  const titles = new Map((await findDocuments(loaded.graphId, [...twinFiles])).filter((d) => d.kind === "passage" && d.title).map((d) => [d.docId, d.title as string]));
  if (titles.size === 0) return [...names.values()];
  for (const id of ids) {
    const name = findDisplayName({ graph: loaded.graph, id, titleOf: (docId) => titles.get(docId) });
    if (name) names.set(id, name);
  }
  return [...names.values()];
}
