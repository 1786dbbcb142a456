#!/usr/bin/env node
// Entry point for `npx refinery`: runs the TypeScript CLI through tsx so a checkout needs
// no build step after `npm ci`.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
// Close the database connections, so a PostgreSQL pool does not keep the process alive.
const { disconnectDb } = await import("../lib/server/db/db.ts");
await disconnectDb();
