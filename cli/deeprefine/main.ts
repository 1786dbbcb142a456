/**
 * `deeprefine`: a drop-in for the DeepRefine skill's CLI (HKUST-KnowComp/DeepRefine-Skill) on a
 * project folder holding graphify-out/graph.json — same subcommands, flags, files and exit
 * codes (0 ok, 1 invalid / refused / failure, 2 usage) — with Refinery's review, real merges,
 * a versioned backup per apply and `undo`. Works on the files directly, no database.
 * See docs/deeprefine.md.
 */
import { Command, CommanderError } from "commander";
import { isAppError } from "../../lib/errors";
import type { Io } from "../output";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError, processIo } from "../output";
import { registerApplyCommand } from "./apply-command";
import { registerHistoryCommands } from "./history-commands";
import { registerLoopCommands } from "./loop-commands";
import type { Context } from "./project";
import { CommandFailed } from "./project";
import { registerReviewCommand } from "./review-command";
import { registerUndoCommand } from "./undo-command";
import { registerServerCommands } from "./server-commands";

function buildProgram(ctx: Context): Command {
  const program = new Command("deeprefine")
    .description("Refine graphify-out/graph.json from question history, with review, versioned applies and undo (Refinery)")
    .version("0.1.0")
    .showHelpAfterError("(run with --help for usage)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s), writeErr: (s) => ctx.io.err(s) });
  registerHistoryCommands(program, ctx);
  registerLoopCommands(program, ctx);
  registerReviewCommand(program, ctx);
  registerApplyCommand(program, ctx);
  registerUndoCommand(program, ctx);
  registerServerCommands(program, ctx);
  return program;
}

export interface MainOptions {
  /** Working directory for relative paths and the project search (default process.cwd()). */
  cwd?: string;
  now?: () => Date;
}

function reportError(io: Io, error: unknown, json: boolean): number {
  if (error instanceof UsageError) {
    io.err(`deeprefine: ${error.message}`);
    return EXIT_USAGE;
  }
  const code = isAppError(error) ? error.code : "INTERNAL";
  const message = error instanceof Error ? error.message : String(error);
  if (json) io.err(JSON.stringify({ error: { code, message } }));
  else io.err(`deeprefine: ${message}`);
  return code === "USAGE" ? EXIT_USAGE : EXIT_FAILURE;
}

/** Run the CLI; returns the exit code (never calls process.exit, so tests call it in-process). */
export async function main(argv: string[], io: Io = processIo, options: MainOptions = {}): Promise<number> {
  const ctx: Context = { io, cwd: options.cwd ?? process.cwd(), now: options.now ?? (() => new Date()) };
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv, { from: "user" });
    return EXIT_OK;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.code === "commander.help") return EXIT_OK;
      return EXIT_USAGE;
    }
    if (error instanceof CommandFailed) return EXIT_FAILURE;
    return reportError(io, error, argv.includes("--json"));
  }
}
