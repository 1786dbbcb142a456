#!/usr/bin/env node
// Entry point for `deeprefine` (Refinery's drop-in for the DeepRefine skill's CLI): the bundled
// CLI when it is up to date with the sources, else the TypeScript sources through tsx (see
// load-cli.mjs), so a checkout works without a build too.
import { loadCli } from "./load-cli.mjs";

const cli = await loadCli("deeprefine", "cli/deeprefine/main.ts");
process.exitCode = await cli.main(process.argv.slice(2));
