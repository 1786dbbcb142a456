/**
 * An upload from the browser, imported once it has been received to disk (receive-upload.ts):
 * a graphify project as a `.zip` or as a folder's files (graph.json with the source files it
 * points at, so the review can quote them), or one graph file alone (graph.json or a triple
 * file, no source text). Everything goes through the path import (import-graph.ts), as a CLI
 * import of the same files would: a triple file is streamed from its temporary file whatever
 * its size, in the import worker, with progress; a project is unpacked into the upload's
 * private folder — source files confined to the project, size limits — and the folder is
 * removed afterwards. The graph records no source path, since that folder is gone.
 */
import fs from "node:fs";
import path from "node:path";
import type { Actor } from "../../../auth/permissions";
import { AppError } from "../../../errors";
import type { ImportTracker } from "../import-graph";
import { importGraphFromPath, type ImportReport } from "../import-graph";
import type { GraphFormat } from "../write-graph";
import { checkSize } from "../read-input";
import type { ReceivedUpload } from "./receive-upload";
import { isZipUpload } from "./receive-upload";
import { findProjectFolder, placeFolderFiles, unpackZip } from "./unpack-project";

export interface UploadFields {
  name?: string;
  format?: Exclude<GraphFormat, "bundle">;
}

function baseName(name: string): string {
  return path.posix.basename(name.replace(/\\/g, "/")).replace(/\.gz$/i, "").replace(/\.[^.]+$/, "");
}

/** The folder an upload's project is placed in, inside the upload's own temporary folder. */
function projectDir(upload: ReceivedUpload): string {
  const dir = path.join(upload.dir, "project");
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

async function importProject(dir: string, name: string, actor: Actor, progress?: ImportTracker): Promise<ImportReport> {
  return importGraphFromPath({ path: findProjectFolder(dir), name, actor, sourcePath: null, progress });
}

/**
 * The project or file of a received upload, imported by `actor` (who is audited with the
 * import). The upload's folder is removed when this settles, whatever the outcome.
 */
export async function importReceivedUpload({
  upload,
  fields,
  actor,
  progress,
}: {
  upload: ReceivedUpload;
  fields: UploadFields;
  actor: Actor;
  progress?: ImportTracker;
}): Promise<ImportReport> {
  try {
    const folder = upload.files.filter((f) => f.field === "files");
    if (folder.length > 0) {
      const paths = upload.fields.get("paths") ?? [];
      if (paths.length !== folder.length) throw new AppError("INVALID_INPUT", `a folder upload needs one 'paths' entry per file (${folder.length} files, ${paths.length} paths)`);
      const top = paths[0]?.replace(/\\/g, "/").split("/").filter(Boolean)[0] ?? "upload";
      const dir = projectDir(upload);
      placeFolderFiles({ files: folder.map((f, i) => ({ path: paths[i] as string, file: f.file })), dir });
      return await importProject(dir, fields.name ?? top, actor, progress);
    }
    const file = upload.files.find((f) => f.field === "file");
    if (!file) throw new AppError("INVALID_INPUT", "choose a file or a folder to upload (form field 'file', or 'files' with 'paths')");
    const name = fields.name ?? baseName(file.name);
    if (isZipUpload(file.name, file.head)) {
      checkSize(file.bytes, file.name);
      const dir = projectDir(upload);
      await unpackZip({ file: file.file, dir });
      return await importProject(dir, name, actor, progress);
    }
    // One graph file: graphify JSON by its name (or the format field), else a triple file —
    // streamed from where it was received, with no size limit (read-input.ts checks JSON's).
    const format = fields.format ?? (/\.json$/i.test(file.name) ? "graphify" : "triples");
    return await importGraphFromPath({ path: file.file, name, format, actor, sourcePath: null, progress, sourceName: file.name, sources: false });
  } finally {
    upload.remove();
  }
}
