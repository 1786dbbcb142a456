/**
 * Runs once when the Next.js server starts: runs left "running" by a server that stopped
 * (restart, crash) are marked interrupted, so the UI never shows them as still going.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { markInterruptedRuns } = await import("./lib/server/runs");
  const count = await markInterruptedRuns();
  if (count > 0) console.log(`refinery: marked ${count} unfinished run(s) as interrupted`);
}
