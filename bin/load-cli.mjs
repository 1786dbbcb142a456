// Loads a CLI for bin/refinery.mjs and bin/deeprefine.mjs: the bundle in dist/cli/ (built by
// scripts/build-cli.mjs at `npm ci` / `npm run build:cli`) while it is fresh, else the
// TypeScript sources through tsx (1.5–3 s of compiling per call).
//
// Fresh means: dist/cli/inputs.json exists and every source file it lists (every repo file the
// bundle was built from) is still there, unmodified since the build started — an mtime after the
// build is fine only if the file's SHA-1 is still the one bundled (a checkout or `prisma generate`
// rewriting the same text). So a developer who edits cli/ or lib/ runs the edited sources at
// once, never stale code; `npm run build:cli` makes calls fast again.
// REFINERY_CLI_FROM_SOURCE=1 always runs the sources.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Whether `bundle` (a file in a build folder holding inputs.json) is newer than every source it lists under `sourceRoot`. */
export function isBundleFresh(bundle, sourceRoot = root) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(path.dirname(bundle), "inputs.json"), "utf8"));
  } catch {
    return false;
  }
  if (typeof manifest?.builtAt !== "number" || !Array.isArray(manifest.inputs) || !fs.existsSync(bundle)) return false;
  for (const input of manifest.inputs) {
    const file = path.join(sourceRoot, input);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return false;
    // Touched since the build: still fresh if its text is the text that was bundled.
    if (stat.mtimeMs > manifest.builtAt && createHash("sha1").update(fs.readFileSync(file, "utf8")).digest("hex") !== manifest.sha1?.[input]) return false;
  }
  return true;
}

/** The CLI module: `name` is the bundle (dist/cli/<name>.mjs), `source` its entry relative to the repository. */
export async function loadCli(name, source) {
  const bundle = path.join(root, "dist", "cli", `${name}.mjs`);
  if (!process.env.REFINERY_CLI_FROM_SOURCE && isBundleFresh(bundle)) {
    // Stack traces (REFINERY_DEBUG prints them) name the TypeScript sources through the bundle's source maps.
    if (process.env.REFINERY_DEBUG) process.setSourceMapsEnabled(true);
    return import(pathToFileURL(bundle).href);
  }
  const { register } = await import("tsx/esm/api");
  register();
  return import(pathToFileURL(path.join(root, source)).href);
}
