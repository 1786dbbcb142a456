/**
 * Runs once when the Next.js server starts: runs left "running" by a server that stopped
 * (restart, crash) are marked interrupted, so the UI never shows them as still going; then
 * every minute, for instances that die while others keep serving.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Before anything else: sign-in limits and the audit log need the connection's real peer.
  (await import("./lib/server/auth/peer-address")).installPeerAddressHeader();
  const { markInterruptedRuns } = await import("./lib/server/runs/runs");
  const count = await markInterruptedRuns();
  if (count > 0) console.log(`refinery: marked ${count} unfinished run(s) as interrupted`);
  const { markInterruptedCampaigns } = await import("./lib/server/campaigns/campaigns");
  const campaigns = await markInterruptedCampaigns();
  if (campaigns > 0) console.log(`refinery: marked ${campaigns} unfinished campaign(s) as interrupted`);
  // With several instances, one may die while the others keep running: sweep now and then.
  setInterval(() => {
    markInterruptedRuns()
      .then((n) => {
        if (n > 0) console.log(`refinery: marked ${n} run(s) of a stopped process as interrupted`);
      })
      .catch(() => undefined);
    markInterruptedCampaigns().catch(() => undefined);
  }, 60_000).unref();
}
