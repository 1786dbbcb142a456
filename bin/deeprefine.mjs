#!/usr/bin/env node
// Entry point for `deeprefine` (Refinery's drop-in for the DeepRefine skill's CLI): runs the
// TypeScript CLI through tsx so a checkout needs no build step after `npm ci`.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/deeprefine/main.ts");
process.exitCode = await main(process.argv.slice(2));
