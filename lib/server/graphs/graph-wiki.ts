/** The wiki of a stored graph version, written atomically into a folder. */
import { buildWiki } from "../../export/export-wiki";
import { getGraphSummary, loadGraph } from "./graph-store";
import { writeWikiAtomically } from "./write-wiki";

export async function writeGraphWiki(options: { graph: string; dir: string; version?: number }): Promise<{ dir: string; files: number; bytes: number; version: number }> {
  const loaded = await loadGraph(options.graph, options.version);
  const summary = await getGraphSummary(options.graph);
  const wiki = buildWiki({ graph: loaded.graph, title: loaded.name, version: loaded.version, documents: summary.documents });
  const written = await writeWikiAtomically({ dir: options.dir, files: wiki.files });
  return { dir: written.dir, files: written.files, bytes: written.bytes, version: loaded.version };
}
