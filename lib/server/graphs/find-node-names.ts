/**
 * The readable names of the nodes a page shows (a proposal's actions, a run's triples): label,
 * plus what tells it apart where another node shares the label. Computed on the graph's current
 * version; a node that is gone since keeps the name the caller already had.
 */
import type { DisplayName } from "../../graph/display-names";
import { findDisplayName } from "../../graph/display-names";
import type { KnowledgeGraph } from "../../graph/model";
import { findDocuments } from "./graph-store";
import { runOnVersion } from "./on-version";

export type { DisplayName };

/** Display names, one per node (a list, not an object keyed by id: ids may be "__proto__"). */
export type NodeNames = DisplayName[];

/** Past this the page shows labels without the "which one" hint rather than wait. */
const MAX_IDS = 2_000;

export async function findNodeNames(options: { graph: string; ids: Iterable<string> }): Promise<NodeNames> {
  const ids = [...new Set(options.ids)].slice(0, MAX_IDS);
  const namesOn = (graph: KnowledgeGraph, titleOf?: (docId: string) => string | undefined) => {
    const twinFiles = new Set<string>();
    // A Map: ids are hostile text ("__proto__" is a key like any other).
    const names = new Map<string, DisplayName>();
    for (const id of ids) {
      const name = findDisplayName({ graph, id, titleOf });
      if (!name) continue;
      names.set(id, name);
      const file = graph.getNode(id)?.sourceFile;
      if (name.secondary !== null && file) twinFiles.add(file);
    }
    return { names, twinFiles };
  };
  // The whole current version, or over SQL the nodes of these ids and of their labels (on-version.ts).
  const first = await runOnVersion(options.graph, undefined, (graph) => namesOn(graph));
  const { names, twinFiles } = first.result;
  if (twinFiles.size === 0) return [...names.values()];
  // Passages have titles; a file's path already is its name.
  const titles = new Map((await findDocuments(first.graphId, [...twinFiles])).filter((d) => d.kind === "passage" && d.title).map((d) => [d.docId, d.title as string]));
  if (titles.size === 0) return [...names.values()];
  return [...(await runOnVersion(options.graph, first.version, (graph) => namesOn(graph, (docId) => titles.get(docId)))).result.names.values()];
}
