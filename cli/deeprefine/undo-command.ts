/**
 * `deeprefine undo`: put graph.json back as it was before the last apply, from that apply's
 * versioned backup. Refused when graph.json is not byte for byte what the apply wrote (someone
 * or something changed it since: undoing would silently throw that away). Each undo walks one
 * apply further back.
 */
import type { Command } from "commander";
import { formatUtcTimestamp } from "../../lib/deeprefine/history";
import { undoTarget } from "../../lib/deeprefine/versions";
import { AppError } from "../../lib/errors";
import { parseGraphifyJson } from "../../lib/import/parse-graphify";
import { decodeText } from "../../lib/server/graphs/read-input";
import { printJson } from "../output";
import { refreshWiki } from "./apply-command";
import type { Context, RootOptions } from "./project";
import { display, failWith, isFile, projectPaths, readBytes, rootOptions, sha256, writeFileAtomic } from "./project";
import { readVersions, saveVersionMeta, versionGraphFile } from "./version-store";

export function registerUndoCommand(program: Command, ctx: Context): void {
  const { io } = ctx;
  rootOptions(program.command("undo").description("restore graph.json as it was before the last apply (repeat to walk further back)"))
    .option("--refresh-wiki", "also regenerate graphify-out/wiki from the restored graph")
    .option("--json", "print {undone, restored_sha256, remaining} as JSON")
    .action(async (opts: RootOptions & { refreshWiki?: boolean; json?: boolean }) => {
      const paths = projectPaths(opts, ctx.cwd);
      const metas = readVersions(paths);
      const target = undoTarget(metas);
      if (!target) failWith(ctx, [`Nothing to undo: no apply recorded under ${paths.versions}.`]);

      const backupFile = versionGraphFile(paths, target.version);
      if (!isFile(backupFile)) failWith(ctx, [`Cannot undo apply ${target.version}: its backup ${backupFile} is missing.`]);
      const backup = readBytes(backupFile);
      if (sha256(backup) !== target.before_sha256) {
        failWith(ctx, [`Cannot undo apply ${target.version}: its backup ${backupFile} does not match the hash recorded at apply time (it was edited); graph.json was not changed.`]);
      }
      const current = isFile(paths.graph) ? readBytes(paths.graph) : null;
      const currentSha = current ? sha256(current) : null;
      if (currentSha !== target.after_sha256) {
        failWith(ctx, [
          `Refusing to undo apply ${target.version}: graph.json changed after that apply (${current ? `sha256 ${currentSha?.slice(0, 12)}…, the apply wrote ${target.after_sha256.slice(0, 12)}…` : "it is missing"}).`,
          "Undo would throw those later changes away. graph.json was not changed.",
          `To restore anyway, copy ${display(paths, backupFile)} over graphify-out/graph.json yourself.`,
        ]);
      }

      writeFileAtomic(paths.graph, backup);
      let wiki: { dir: string; files: number } | null = null;
      if (opts.refreshWiki) {
        try {
          wiki = await refreshWiki(paths, parseGraphifyJson(decodeText(backup, backupFile), { source: backupFile }));
        } catch (e) {
          if (current) writeFileAtomic(paths.graph, current);
          const why = e instanceof Error ? e.message : String(e);
          throw new AppError("INTERNAL", `refreshing the wiki failed (${why}); graph.json was put back and nothing was undone`);
        }
      }
      saveVersionMeta(paths, { ...target, undone_ts: formatUtcTimestamp(ctx.now()) });
      const remaining = metas.filter((m) => m.undone_ts === null && m.version !== target.version).length;

      if (opts.json) return printJson(io, { undone: target.version, graph_file: paths.graph, restored_sha256: target.before_sha256, actions: target.actions, remaining, wiki });
      io.out(`Undid apply ${target.version}${target.query ? ` (${target.query})` : ""}: ${paths.graph} restored from ${display(paths, backupFile)}`);
      for (const a of target.actions.filter((x) => !x.skipped)) io.out(`  - reverted ${a.action}`);
      if (wiki) io.out(`Wiki: wrote ${wiki.files} page(s) to ${display(paths, wiki.dir)}`);
      io.out(remaining > 0 ? `${remaining} earlier apply(s) can still be undone.` : "No earlier apply left to undo.");
    });
}
