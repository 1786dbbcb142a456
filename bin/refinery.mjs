#!/usr/bin/env node
// Entry point for `npx refinery`: the bundled CLI when it is up to date with the sources, else
// the TypeScript sources through tsx (see load-cli.mjs), so a checkout works without a build too.
import { loadCli } from "./load-cli.mjs";

// A reader that stops early (`refinery export g | head`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(process.exitCode ?? 0);
});

const cli = await loadCli("refinery", "cli/main.ts");
process.exitCode = await cli.main(process.argv.slice(2));
// Close the database connections, so a PostgreSQL pool does not keep the process alive.
await cli.closeConnections();
