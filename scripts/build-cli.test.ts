/**
 * The bundled CLI (scripts/build-cli.mjs): a build into a scratch folder of the checkout runs
 * the real commands in a child process — help without loading a command, an import, list,
 * query and a streamed export that round-trips the file — with only the SQLite driver loaded
 * (and for the query no Prisma at all);
 * and the freshness rule of bin/load-cli.mjs (any listed source edited since the build, or gone,
 * sends the CLI back to the sources).
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataPath, readData } from "../lib/test/data";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..");

interface Manifest {
  builtAt: number;
  inputs: string[];
  sha1: Record<string, string>;
}
interface BuildModule {
  buildCli: (options: { root?: string; outdir?: string }) => Promise<Manifest | null>;
}
interface LoaderModule {
  isBundleFresh: (bundle: string, sourceRoot?: string) => boolean;
}

const importFile = async <T>(file: string) => (await import(pathToFileURL(path.join(ROOT, file)).href)) as T;

let outdir: string;
let tmp: string;
let manifest: Manifest | null;

/** Runs the bundle in a fresh Node process; prints {code, out, packages} (the packages it loaded). */
async function runBundle(...argv: string[]): Promise<{ code: number; out: string; packages: string[] }> {
  const script = `
    import { createRequire } from "node:module";
    const require = createRequire(import.meta.url);
    const cli = await import(${JSON.stringify(pathToFileURL(path.join(outdir, "refinery.mjs")).href)});
    let out = "";
    const code = await cli.main(JSON.parse(process.argv[1]), { out: (t) => { out += t + "\\n"; }, err: (t) => process.stderr.write(t + "\\n") });
    await cli.closeConnections();
    const packages = [...new Set(Object.keys(require.cache).map((k) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(k)?.[1]).filter(Boolean))];
    process.stdout.write(JSON.stringify({ code, out, packages }));
  `;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(argv)], {
    cwd: tmp,
    env: { ...process.env, DATABASE_URL: `file:${path.join(tmp, "cli.db")}` },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as { code: number; out: string; packages: string[] };
}

beforeAll(async () => {
  // Inside the checkout (so node_modules resolves), one level under dist/ like dist/cli.
  outdir = path.join(ROOT, "dist", `cli-test-${process.pid}`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-build-cli-"));
  const { buildCli } = await importFile<BuildModule>("scripts/build-cli.mjs");
  manifest = await buildCli({ outdir });
});

afterAll(() => {
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the bundled CLI", () => {
  it("lists the sources it was built from, with the hash of the text bundled", () => {
    expect(manifest).not.toBeNull();
    expect(Object.keys(manifest?.sha1 ?? {})).toContain("cli/main.ts");
    expect(manifest?.inputs).toEqual(expect.arrayContaining(["cli/main.ts", "cli/graph-commands.ts", "cli/deeprefine/main.ts", "lib/server/db/db.ts", "lib/export/export-graphify.ts"]));
    for (const input of manifest?.inputs ?? []) expect(fs.existsSync(path.join(ROOT, input)), input).toBe(true);
  });

  it("prints help without loading a command module or a database driver", async () => {
    const help = await runBundle("--help");
    expect(help.code).toBe(0);
    for (const command of ["import", "graphs", "query", "export", "review", "mcp", "campaign"]) expect(help.out).toMatch(new RegExp(`^  ${command} `, "m"));
    expect(help.packages).toEqual([]);
  });

  it("imports, lists, queries and streams an export byte-identical, loading only the SQLite driver", async () => {
    expect((await runBundle("import", dataPath("graphify", "httpx"), "--name", "httpx")).code).toBe(0);
    const graphs = await runBundle("graphs", "--json");
    expect((JSON.parse(graphs.out) as { name: string }[]).map((g) => g.name)).toEqual(["httpx"]);
    expect(graphs.packages).toContain("better-sqlite3");
    expect(graphs.packages).not.toContain("pg");
    expect(graphs.packages).not.toContain("@prisma/adapter-pg");
    const query = await runBundle("query", "httpx", "How does the Client send a request?");
    expect(query.out).toMatch(/^EDGE /m);
    // A read needs no ORM: the graph's row and its version come through the SQLite driver alone.
    expect(query.packages).toContain("better-sqlite3");
    expect(query.packages.filter((p) => p.startsWith("@prisma/") || p === "pg")).toEqual([]);
    const out = path.join(tmp, "graph.json");
    expect((await runBundle("export", "httpx", "--out", out)).code).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toBe(readData("graphify", "httpx", "graph.json"));
  });
});

describe("bin/load-cli.mjs freshness", () => {
  it("uses a bundle only while no listed source is newer or missing", async () => {
    const { isBundleFresh } = await importFile<LoaderModule>("bin/load-cli.mjs");
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-fresh-"));
    try {
      const build = path.join(root, "dist", "cli");
      fs.mkdirSync(build, { recursive: true });
      fs.mkdirSync(path.join(root, "cli"));
      const source = path.join(root, "cli", "main.ts");
      fs.writeFileSync(source, "export {};\n");
      const bundle = path.join(build, "refinery.mjs");
      expect(isBundleFresh(bundle, root)).toBe(false); // no build yet
      fs.writeFileSync(bundle, "");
      const builtAt = Date.now();
      fs.utimesSync(source, new Date(builtAt - 60_000), new Date(builtAt - 60_000));
      const sha1 = createHash("sha1").update("export {};\n").digest("hex");
      fs.writeFileSync(path.join(build, "inputs.json"), JSON.stringify({ builtAt, inputs: ["cli/main.ts"], sha1: { "cli/main.ts": sha1 } }));
      expect(isBundleFresh(bundle, root)).toBe(true);
      fs.utimesSync(source, new Date(builtAt + 1_000), new Date(builtAt + 1_000));
      expect(isBundleFresh(bundle, root)).toBe(true); // touched, same text (a checkout, prisma generate)
      fs.writeFileSync(source, "export const edited = 1;\n");
      fs.utimesSync(source, new Date(builtAt + 2_000), new Date(builtAt + 2_000));
      expect(isBundleFresh(bundle, root)).toBe(false); // edited after the build
      fs.rmSync(source);
      expect(isBundleFresh(bundle, root)).toBe(false); // a source is gone
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
