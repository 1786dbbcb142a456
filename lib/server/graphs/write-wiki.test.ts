import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import { buildWiki } from "../../export/export-wiki";
import { parseGraphifyJson } from "../../import/parse-graphify";
import { readData } from "../../test/data";
import type { WikiFs } from "./write-wiki";
import { wikiPathSegments, writeWikiAtomically } from "./write-wiki";

let root: string;
let dir: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "refinery-wiki-"));
  dir = path.join(root, "wiki");
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every file under a folder → its bytes, keyed by relative path. */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out[path.relative(folder, p).split(path.sep).join("/")] = fs.readFileSync(p).toString("base64");
    }
  };
  walk(folder);
  return out;
}

function writeOldWiki(): Record<string, string> {
  fs.mkdirSync(path.join(dir, "communities"), { recursive: true });
  fs.writeFileSync(path.join(dir, "index.md"), "# old\n");
  fs.writeFileSync(path.join(dir, "communities", "old.md"), "old community\n");
  fs.writeFileSync(path.join(dir, "notes.txt"), Buffer.from([0, 1, 2, 255]));
  return snapshot(dir);
}

const NEW_FILES = [
  { path: "index.md", content: "# new\n" },
  { path: "communities/a.md", content: "A é\n" },
  { path: "nodes/b.md", content: "B\n" },
];

async function expectAppError(promise: Promise<unknown>, code: string, message: string): Promise<AppError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe(code);
    expect((e as AppError).message).toContain(message);
    return e as AppError;
  }
  throw new Error("expected an error");
}

/** The real fs, with one call made to fail. */
function failing(method: keyof WikiFs, when: (...args: unknown[]) => boolean): WikiFs {
  const real = fs.promises as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const name of ["lstat", "mkdir", "mkdtemp", "writeFile", "rename", "rm"]) {
    const fn = real[name] as (...args: unknown[]) => Promise<unknown>;
    wrapped[name] = (...args: unknown[]) => {
      if (name === method && when(...args)) return Promise.reject(Object.assign(new Error(`injected ${name} failure`), { code: "EIO" }));
      return fn.apply(fs.promises, args);
    };
  }
  return wrapped as unknown as WikiFs;
}

describe("writeWikiAtomically", () => {
  it("creates a new wiki, parent folders included", async () => {
    const nested = path.join(root, "a", "b", "wiki");
    const result = await writeWikiAtomically({ dir: nested, files: NEW_FILES });
    expect(result).toEqual({ dir: nested, files: 3, bytes: 6 + 5 + 2, replaced: false });
    expect(fs.readFileSync(path.join(nested, "communities", "a.md"), "utf8")).toBe("A é\n");
    expect(fs.readdirSync(path.join(root, "a", "b"))).toEqual(["wiki"]);
  });

  it("replaces the old wiki as a whole and leaves nothing beside it", async () => {
    writeOldWiki();
    const result = await writeWikiAtomically({ dir, files: NEW_FILES });
    expect(result.replaced).toBe(true);
    expect(Object.keys(snapshot(dir))).toEqual(["communities/a.md", "index.md", "nodes/b.md"]);
    expect(fs.readFileSync(path.join(dir, "index.md"), "utf8")).toBe("# new\n");
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
  });

  it("refuses a dir that is a file, a symlink or a filesystem root", async () => {
    fs.writeFileSync(dir, "not a folder");
    await expectAppError(writeWikiAtomically({ dir, files: NEW_FILES }), "INVALID_INPUT", "is a file");
    expect(fs.readFileSync(dir, "utf8")).toBe("not a folder");
    expect(fs.readdirSync(root)).toEqual(["wiki"]);

    const real = path.join(root, "real");
    fs.mkdirSync(real);
    const link = path.join(root, "link");
    fs.symlinkSync(real, link);
    await expectAppError(writeWikiAtomically({ dir: link, files: NEW_FILES }), "INVALID_INPUT", "symbolic link");
    expect(fs.readdirSync(real)).toEqual([]);

    await expectAppError(writeWikiAtomically({ dir: path.parse(root).root, files: NEW_FILES }), "INVALID_INPUT", "root");
  });

  it.each([
    ["/etc/passwd", "must be relative"],
    ["\\\\server\\share\\x.md", "must be relative"],
    ["C:\\x.md", "must be relative"],
    ["c:x.md", "must be relative"],
    ["../escape.md", "'..'"],
    ["nodes/../../escape.md", "'..'"],
    ["nodes\\..\\..\\escape.md", "'..'"],
    ["./index.md", "'.'"],
    ["nodes//a.md", "empty segment"],
    ["nodes/", "empty segment"],
    ["", "empty"],
    ["a\0b.md", "NUL"],
  ])("rejects the file path %j before writing anything", async (bad, message) => {
    const old = writeOldWiki();
    await expectAppError(writeWikiAtomically({ dir, files: [...NEW_FILES, { path: bad, content: "x" }] }), "INVALID_INPUT", message);
    expect(snapshot(dir)).toEqual(old);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
    expect(fs.existsSync(path.join(root, "escape.md"))).toBe(false);
  });

  it("rejects duplicate paths and a path that is both file and folder", async () => {
    const old = writeOldWiki();
    await expectAppError(
      writeWikiAtomically({ dir, files: [...NEW_FILES, { path: "Nodes/B.md", content: "again" }] }),
      "INVALID_INPUT",
      "given twice",
    );
    await expectAppError(
      writeWikiAtomically({ dir, files: [...NEW_FILES, { path: "nodes/b.md/c.md", content: "x" }] }),
      "INVALID_INPUT",
      "also a folder",
    );
    expect(snapshot(dir)).toEqual(old);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
  });

  it("keeps the old wiki byte-identical when writing a file fails", async () => {
    const old = writeOldWiki();
    let calls = 0;
    const err = await expectAppError(
      writeWikiAtomically({ dir, files: NEW_FILES, fs: failing("writeFile", () => ++calls === 2) }),
      "INTERNAL",
      "injected writeFile failure",
    );
    expect(err.message).toContain("is unchanged");
    expect(snapshot(dir)).toEqual(old);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
  });

  it("keeps the old wiki byte-identical when the swap fails, and rolls back", async () => {
    const old = writeOldWiki();
    const err = await expectAppError(
      writeWikiAtomically({ dir, files: NEW_FILES, fs: failing("rename", (from) => String(from).includes(".wiki.tmp-")) }),
      "INTERNAL",
      "injected rename failure",
    );
    expect(err.details.restored).toBe(true);
    expect(snapshot(dir)).toEqual(old);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
  });

  it("keeps the old wiki when it cannot be moved aside", async () => {
    const old = writeOldWiki();
    await expectAppError(
      writeWikiAtomically({ dir, files: NEW_FILES, fs: failing("rename", (from) => from === dir) }),
      "INTERNAL",
      "could not move the current wiki aside",
    );
    expect(snapshot(dir)).toEqual(old);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
  });

  it("fails cleanly when the temporary folder cannot be made", async () => {
    const old = writeOldWiki();
    await expectAppError(writeWikiAtomically({ dir, files: NEW_FILES, fs: failing("mkdtemp", () => true) }), "INTERNAL", "temporary folder");
    expect(snapshot(dir)).toEqual(old);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
  });

  it("still succeeds when removing the previous wiki fails; the next write clears it", async () => {
    writeOldWiki();
    const previous = `${dir}.previous`;
    await writeWikiAtomically({ dir, files: NEW_FILES, fs: failing("rm", (p) => p === previous) });
    expect(fs.readFileSync(path.join(dir, "index.md"), "utf8")).toBe("# new\n");
    expect(fs.readdirSync(root).sort()).toEqual(["wiki", "wiki.previous"]);
    await writeWikiAtomically({ dir, files: [{ path: "index.md", content: "# newer\n" }] });
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
    expect(snapshot(dir)).toEqual({ "index.md": Buffer.from("# newer\n").toString("base64") });
  });

  it("after a crash between the renames, restores the old wiki before replacing it", async () => {
    const old = writeOldWiki();
    fs.renameSync(dir, `${dir}.previous`);
    // A failing write must leave the restored old wiki in place, not lose it.
    await expectAppError(writeWikiAtomically({ dir, files: NEW_FILES, fs: failing("writeFile", () => true) }), "INTERNAL", "injected");
    expect(snapshot(dir)).toEqual(old);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
    fs.renameSync(dir, `${dir}.previous`);
    const result = await writeWikiAtomically({ dir, files: NEW_FILES });
    expect(result.replaced).toBe(true);
    expect(fs.readdirSync(root)).toEqual(["wiki"]);
    expect(fs.readFileSync(path.join(dir, "index.md"), "utf8")).toBe("# new\n");
  });

  it("writes the httpx wiki with every link resolving on disk", async () => {
    const graph = parseGraphifyJson(readData("graphify", "httpx", "graph.json"));
    const wiki = buildWiki({ graph, title: "httpx" });
    const result = await writeWikiAtomically({ dir, files: wiki.files });
    expect(result.files).toBe(27);
    for (const f of wiki.files) {
      const onDisk = path.join(dir, ...f.path.split("/"));
      expect(fs.readFileSync(onDisk, "utf8")).toBe(f.content);
      for (const m of f.content.matchAll(/(?<!\\)\]\(([^)\s]*)\)/g)) {
        const target = path.resolve(path.dirname(onDisk), m[1] as string);
        expect(target.startsWith(dir + path.sep)).toBe(true);
        expect(fs.existsSync(target), `${f.path} → ${m[1]}`).toBe(true);
      }
    }
  });
});

describe("wikiPathSegments", () => {
  it("splits good paths", () => {
    expect(wikiPathSegments("index.md")).toEqual(["index.md"]);
    expect(wikiPathSegments("nodes/a.md")).toEqual(["nodes", "a.md"]);
    expect(wikiPathSegments("nodes\\a.md")).toEqual(["nodes", "a.md"]);
    expect(wikiPathSegments("..a.md")).toEqual(["..a.md"]);
  });
});
