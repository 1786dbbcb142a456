/**
 * "Last seen" / "last used" times are informational: written at most once a minute, and never
 * awaited by the request that draws the write. On SQLite a write takes its turn behind the one
 * writer, and an import's transaction holds that turn until it commits (seconds to minutes):
 * awaited, the touch held whichever request drew it until then, or failed it after the busy
 * wait (CI saw `GET /api/graphs/imports` take 2.6 s during a 3.8 s import, so the import form
 * missed the progress lines). One write per key at a time in this process; a failure is logged.
 */
const pending = new Set<string>();

export function touchLater(key: string, write: () => Promise<unknown>): void {
  if (pending.has(key)) return;
  pending.add(key);
  void write()
    .catch((error: unknown) => console.warn(`could not record the last-used time of ${key.slice(0, 24)}`, error))
    .finally(() => pending.delete(key));
}
