/**
 * `refinery` command line. Every command takes --json; errors go to stderr with exit code 1
 * (failure) or 2 (usage). Commands are thin: parse flags, call lib/server, print.
 *
 * Start-up: a command group's module — and with it lib/server, Prisma and the database driver —
 * is imported only when one of its commands runs (`refinery query …` never loads the MCP server
 * or the campaign code). `refinery --help` lists the commands from COMMAND_GROUPS without loading
 * any of them; main.test.ts checks that each summary there is the description its module gives.
 */
import { Command, CommanderError } from "commander";
import type { Io } from "./output";
import { CommandFailed, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, processIo, reportError } from "./output";

type RegisterCommands = (program: Command, io: Io) => void;

export interface CommandGroup {
  /** The top-level commands the module registers, each with its one-line description. */
  commands: Readonly<Record<string, string>>;
  load: () => Promise<RegisterCommands>;
}

export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    commands: {
      import: "import a graph: graphify graph.json (or its folder), a triple file (s|r|o or TSV, .gz ok) or a JSONL bundle folder",
      graphs: "list imported graphs",
      stats: "counts for a graph: nodes, edges, documents, version, top relations",
      query: "retrieve triples for a question (graphify-compatible query, structured triples with ids)",
      export: "write a version of a graph as graphify graph.json",
    },
    load: async () => (await import("./graph-commands")).registerGraphCommands,
  },
  {
    commands: { history: "the question queue of a graph", loop: "the refinement hop loop", runs: "list runs, newest first" },
    load: async () => (await import("./loop-commands")).registerLoopCommands,
  },
  {
    commands: {
      review: "label proposed actions HIGH / MEDIUM / LOW with evidence, warnings and suggestions",
      apply: "apply approved actions as a new graph version (LOW confidence needs --allow-low-confidence)",
      revert: "undo the change that created a version, as a new version",
      diff: "what changed between two versions",
      versions: "a graph's versions, newest first, with what created each",
      proposals: "proposals of a graph, as the review queue",
      wiki: "write a markdown wiki of a graph version (index, communities, hub nodes), atomically",
    },
    load: async () => (await import("./review-commands")).registerReviewCommands,
  },
  {
    commands: { mcp: "serve the MCP tools over stdio (for a coding agent on this machine; see docs/agents.md)" },
    load: async () => (await import("./mcp-command")).registerMcpCommand,
  },
  {
    commands: { audit: "the audit log, newest first: who ran, approved, rejected, applied, reverted, changed policies or signed in, and when" },
    load: async () => (await import("./audit-commands")).registerAuditCommands,
  },
  {
    commands: { ask: "ask a graph a question: plan sub-problems, search relations, neighbours and the corpus, answer (stored; listed on the Ask tab)" },
    load: async () => (await import("./ask-commands")).registerAskCommands,
  },
  {
    commands: { campaign: "refinement campaigns: iterate over a question set in a sandbox, accept or revert, submit the best as one proposal" },
    load: async () => (await import("./campaign-commands")).registerCampaignCommands,
  },
];

/** Set once a command module is loaded: only then is there a database connection to close. */
let loadedCommands = false;

function baseProgram(io: Io): Command {
  return new Command("refinery")
    .description("Question-driven refinement of knowledge graphs with human approval")
    .version("0.1.0")
    .enablePositionalOptions()
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
}

/**
 * The program for this argv: the real commands of the group that `argv[0]` (or `help <name>`)
 * names; otherwise (no command, --help, --version, a typo) a list of every command by name and
 * summary, which is all commander needs to print help, the version or "unknown command".
 */
async function buildProgram(argv: string[], io: Io): Promise<Command> {
  const program = baseProgram(io);
  const name = argv[0] === "help" ? argv[1] : argv[0];
  const group = name === undefined ? undefined : COMMAND_GROUPS.find((g) => Object.hasOwn(g.commands, name));
  if (group) {
    const register = await group.load();
    loadedCommands = true;
    register(program, io);
    return program;
  }
  for (const g of COMMAND_GROUPS) for (const [command, summary] of Object.entries(g.commands)) program.command(command).description(summary);
  return program;
}

/** Run the CLI; returns the exit code (never calls process.exit, so tests can call it). */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const json = argv.includes("--json");
  try {
    const program = await buildProgram(argv, io);
    await program.parseAsync(argv, { from: "user" });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return EXIT_OK;
      return EXIT_USAGE;
    }
    // The command already explained the failure on stderr (invalid trace, failed run).
    if (error instanceof CommandFailed) return EXIT_FAILURE;
    return reportError(io, error, json);
  }
}

/** Close the database connections a command opened (a PostgreSQL pool keeps the process alive); loads nothing after --help. */
export async function closeConnections(): Promise<void> {
  if (!loadedCommands) return;
  const { disconnectDb } = await import("../lib/server/db/close");
  await disconnectDb();
}
