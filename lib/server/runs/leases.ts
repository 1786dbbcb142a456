/**
 * Leases of background work (runs, campaigns) across processes and instances: the row that
 * runs names its owner (`pid@host`) and beats a heartbeat; after a restart, work whose owner is
 * gone is marked interrupted. One rule for both, so they cannot drift apart.
 */
import os from "node:os";

/** This process, as a lease owner. */
export const PROCESS_OWNER = `${process.pid}@${os.hostname()}`;
/** How often live work beats. */
export const HEARTBEAT_MS = 5_000;
/** Silent this long: abandoned, whoever owned it (another instance died). */
export const STALE_AFTER_MS = 120_000;

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as { code?: string }).code === "EPERM";
  }
}

/**
 * Whether a "running" row's owner is gone: silent for STALE_AFTER_MS, whoever owned it; or quiet
 * for a few heartbeats and either owned by this pid@host but not live in this process (a
 * previous process with the same pid, as after a container restart) or owned by a pid of this
 * host that no longer exists (the quiet period keeps another pid namespace under the same
 * hostname from fooling the pid check). Work of live instances keeps beating: never abandoned.
 */
export function isAbandoned(row: { owner: string | null; heartbeatAt: Date }, now: number, liveHere: boolean): boolean {
  const silentFor = now - row.heartbeatAt.getTime();
  if (silentFor > STALE_AFTER_MS) return true;
  // Quiet for a few heartbeats: not one just being inserted, nor a live process's.
  if (silentFor <= 3 * HEARTBEAT_MS) return false;
  if (row.owner === PROCESS_OWNER) return !liveHere;
  const [pid, host] = (row.owner ?? "").split("@");
  return host === os.hostname() && !!pid && /^\d+$/.test(pid) && !isProcessAlive(Number(pid));
}
