/**
 * Whether an evidence summary only repeats its signal's: many signals cite what they measured in
 * the same words ("functional in_language: in_language is functional …"), and the card then said
 * it twice.
 */
export function repeatsSignal(evidenceSummary: string, signalSummary: string): boolean {
  const squash = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();
  const e = squash(evidenceSummary);
  const s = squash(signalSummary);
  return e.length > 0 && (e === s || e.endsWith(s) || s.includes(e));
}
