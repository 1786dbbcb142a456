/**
 * `.deeprefine/versions/<n>/` on disk (lib/deeprefine/versions.ts describes the layout). A
 * version folder is written complete under a temporary name and renamed into place, so a
 * crash never leaves a half-written backup that undo would trust.
 */
import fs from "node:fs";
import path from "node:path";
import type { Changeset } from "../../lib/changes/changeset";
import { serializeChangeset } from "../../lib/changes/changeset";
import { AppError } from "../../lib/errors";
import type { VersionMeta } from "../../lib/deeprefine/versions";
import { VERSION_FILES, formatVersionMeta, parseVersionMeta, versionNumbers } from "../../lib/deeprefine/versions";
import type { ProjectPaths } from "./project";
import { isFile, readText, writeFileAtomic } from "./project";

export function versionDir(paths: ProjectPaths, version: number): string {
  return path.join(paths.versions, String(version));
}

export function existingVersionNumbers(paths: ProjectPaths): number[] {
  return fs.existsSync(paths.versions) ? versionNumbers(fs.readdirSync(paths.versions)) : [];
}

/** Every version's record, oldest first; a folder without its record is skipped (not one of ours). */
export function readVersions(paths: ProjectPaths): VersionMeta[] {
  const metas: VersionMeta[] = [];
  for (const n of existingVersionNumbers(paths)) {
    const file = path.join(versionDir(paths, n), VERSION_FILES.meta);
    if (!isFile(file)) continue;
    const meta = parseVersionMeta(readText(file), { source: file });
    if (meta.version !== n) throw new AppError("INVALID_INPUT", `${file}: says version ${meta.version} but sits in folder ${n}`, { source: file });
    metas.push(meta);
  }
  return metas;
}

export function writeVersion(
  paths: ProjectPaths,
  { meta, before, changeset, inverse }: { meta: VersionMeta; before: Uint8Array; changeset: Changeset; inverse: Changeset },
): string {
  const dir = versionDir(paths, meta.version);
  if (fs.existsSync(dir)) throw new AppError("CONFLICT", `${dir} already exists: another apply ran at the same time? Nothing was changed.`, { dir });
  fs.mkdirSync(paths.versions, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(paths.versions, `.tmp-${meta.version}-`));
  try {
    fs.writeFileSync(path.join(tmp, VERSION_FILES.graph), before);
    fs.writeFileSync(path.join(tmp, VERSION_FILES.changeset), `${serializeChangeset(changeset)}\n`);
    fs.writeFileSync(path.join(tmp, VERSION_FILES.inverse), `${serializeChangeset(inverse)}\n`);
    fs.writeFileSync(path.join(tmp, VERSION_FILES.meta), formatVersionMeta(meta));
    fs.renameSync(tmp, dir);
  } catch (e) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
  return dir;
}

export function removeVersion(paths: ProjectPaths, version: number): void {
  fs.rmSync(versionDir(paths, version), { recursive: true, force: true });
}

export function saveVersionMeta(paths: ProjectPaths, meta: VersionMeta): void {
  writeFileAtomic(path.join(versionDir(paths, meta.version), VERSION_FILES.meta), formatVersionMeta(meta));
}

export function versionGraphFile(paths: ProjectPaths, version: number): string {
  return path.join(versionDir(paths, version), VERSION_FILES.graph);
}
