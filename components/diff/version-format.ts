import type { VersionInfo, VersionKind } from "../api/diff-types";

export const KIND_LABEL: Record<VersionKind, string> = { import: "import", apply: "applied", revert: "undo" };

export const KIND_HINT: Record<VersionKind, string> = {
  import: "The graph as imported: the first version",
  apply: "Approved actions of a proposal, applied",
  revert: "Reverses an earlier version's change, as a new version",
};

export function versionsHref(graph: string): string {
  return `/graphs/${encodeURIComponent(graph)}/versions`;
}

/** The diff page of `to`; `from` only when it is not the default (to − 1). */
export function versionHref(graph: string, to: number, from?: number): string {
  const base = `${versionsHref(graph)}/${to}`;
  return from === undefined || from === to - 1 ? base : `${base}?from=${from}`;
}

const numberFormat = new Intl.NumberFormat("en-US");

export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** "+3" / "−14" / "±0" against the previous version. */
export function formatDelta(n: number): string {
  if (n === 0) return "±0";
  return n > 0 ? `+${numberFormat.format(n)}` : `−${numberFormat.format(-n)}`;
}

/** The version right before this one in a newest-first list. */
export function previousOf(versions: VersionInfo[], version: number): VersionInfo | undefined {
  return versions.find((v) => v.version === version - 1);
}

/** A stored version message as a sentence (older ones were written as notes: "imported graphify"). */
export function messageSentence(message: string): string {
  const t = message.trim();
  if (t === "") return "";
  const first = `${t.charAt(0).toUpperCase()}${t.slice(1)}`;
  return /[.!?…)”]$/.test(first) ? first : `${first}.`;
}
