/**
 * An upload from the browser, imported: a graphify project as a `.zip` or as a folder's files
 * (graph.json with the source files it points at, so the review can quote them), or one graph
 * file alone (graph.json or a triple file, no source text). A project is unpacked into a fresh
 * private temporary folder (unpack-project.ts) and imported as a path import is — source files
 * confined to the project, size limits, worker thread for big graphs — then the folder is
 * removed; the graph records no source path, since that folder is gone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Actor } from "../../../auth/permissions";
import { AppError } from "../../../errors";
import { importGraphFromPath, importGraphFromText, type ImportReport } from "../import-graph";
import type { GraphFormat } from "../write-graph";
import { checkSize, decodeText } from "../read-input";
import { findProjectFolder, unpackZip, writeFolderFiles } from "./unpack-project";

export interface UploadFields {
  name?: string;
  format?: Exclude<GraphFormat, "bundle">;
}

export type UploadInput =
  | { kind: "file"; file: File }
  | { kind: "folder"; files: { path: string; file: File }[] };

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(name: string, head: Uint8Array): boolean {
  return /\.zip$/i.test(name) || ZIP_MAGIC.every((b, i) => head[i] === b);
}

function baseName(name: string): string {
  return path.posix.basename(name.replace(/\\/g, "/")).replace(/\.[^.]+$/, "");
}

async function importUnpacked(dir: string, name: string, actor: Actor): Promise<ImportReport> {
  const project = findProjectFolder(dir);
  return importGraphFromPath({ path: project, name, actor, sourcePath: null });
}

async function withTempFolder<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-upload-"));
  try {
    return await run(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The project or file of an upload, imported by `actor` (who is audited with the import). */
export async function importUpload({ input, fields, actor }: { input: UploadInput; fields: UploadFields; actor: Actor }): Promise<ImportReport> {
  if (input.kind === "folder") {
    if (input.files.length === 0) throw new AppError("INVALID_INPUT", "the folder is empty");
    const top = input.files[0]?.path.replace(/\\/g, "/").split("/").filter(Boolean)[0] ?? "upload";
    const files = await Promise.all(input.files.map(async (f) => ({ path: f.path, data: new Uint8Array(await f.file.arrayBuffer()) })));
    return withTempFolder(async (dir) => {
      writeFolderFiles({ files, dir });
      return importUnpacked(dir, fields.name ?? top, actor);
    });
  }
  const { file } = input;
  checkSize(file.size, file.name);
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (isZip(file.name, bytes.subarray(0, 4))) {
    return withTempFolder(async (dir) => {
      await unpackZip({ bytes, dir });
      return importUnpacked(dir, fields.name ?? baseName(file.name), actor);
    });
  }
  const text = decodeText(bytes, file.name);
  return importGraphFromText({ name: fields.name ?? baseName(file.name), fileName: file.name, text, format: fields.format, actor });
}
