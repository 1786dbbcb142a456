/**
 * `refinery --help` lists the commands from cli/main.ts's COMMAND_GROUPS without loading their
 * modules; this keeps that list true: every group registers exactly the commands it names, with
 * the same descriptions, and the routing (a command, `help <command>`, a typo) works.
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMAND_GROUPS, main } from "./main";
import type { Io } from "./output";

const quietIo: Io = { out: () => {}, err: () => {} };

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

describe("COMMAND_GROUPS", () => {
  it.each(COMMAND_GROUPS.map((g) => [Object.keys(g.commands).join(", "), g] as const))("%s: the module registers exactly these commands", async (_, group) => {
    const program = new Command();
    (await group.load())(program, quietIo);
    const registered = Object.fromEntries(program.commands.map((c) => [c.name(), c.description()]));
    expect(registered).toEqual(group.commands);
  });

  it("names each command once", () => {
    const names = COMMAND_GROUPS.flatMap((g) => Object.keys(g.commands));
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("command routing", () => {
  it("lists every command in the help", async () => {
    const help = await run("--help");
    expect(help.code).toBe(0);
    for (const name of COMMAND_GROUPS.flatMap((g) => Object.keys(g.commands))) expect(help.out).toMatch(new RegExp(`^  ${name} `, "m"));
  });

  it("shows a command's own help and options, by --help or help <command>", async () => {
    for (const argv of [["query", "--help"], ["help", "query"]]) {
      const r = await run(...argv);
      expect(r.code).toBe(0);
      expect(r.out).toContain("Usage: refinery query [options] <graph> <question>");
      expect(r.out).toContain("--budget <chars>");
    }
  });

  it("answers a typo with a usage error that suggests the command", async () => {
    const r = await run("qurey", "g", "q");
    expect(r.code).toBe(2);
    expect(r.err).toContain("unknown command 'qurey'");
    expect(r.err).toContain("query");
    expect((await run("--version")).code).toBe(0);
  });
});
