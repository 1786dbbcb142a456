/**
 * A short date and time in UTC ("30 Nov 2026, 09:44 UTC"; "—" for never): the format of the
 * graph list, runs and the audit log, and the same on the server and in every browser.
 */
export function formatWhen(iso: string | null): string {
  if (!iso) return "—";
  return `${new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
}
