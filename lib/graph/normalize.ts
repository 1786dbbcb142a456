/**
 * Label normalisation shared by import, the name resolver and retrieval, so that every step
 * agrees on what "the same name" means: NFKC, case-folded, diacritics stripped, whitespace
 * collapsed.
 */
export function normalizeLabel(label: string): string {
  return label
    .normalize("NFKC")
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .normalize("NFKC")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/\s+/g, " ")
    .trim();
}

/** Words of a text for matching: lower-cased, diacritics stripped, `\w+` runs (Unicode letters). */
export function tokenize(text: string): string[] {
  return normalizeLabel(text).match(/[\p{L}\p{N}_]+/gu) ?? [];
}

/** `foo()` and `.foo()` are how graphify labels functions and methods; the bare name matches too. */
export function stripCallSuffix(label: string): string {
  return label.replace(/\(\)$/, "").replace(/^\./, "");
}
