import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Fresh screenshot folder each run. (The database is reset by the web server command.) */
export default function globalSetup(): void {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!fs.existsSync(chromium)) {
    throw new Error(`no Chromium at ${chromium}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  const artifacts = path.join(here, "artifacts");
  fs.rmSync(artifacts, { recursive: true, force: true });
  fs.mkdirSync(artifacts, { recursive: true });
}
