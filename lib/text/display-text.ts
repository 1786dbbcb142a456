/**
 * Text from graphs is hostile until shown otherwise: labels may be 100k characters long or hide
 * bidirectional controls that reorder what a reader sees (`\u202Eevil\u202C.py` renders as
 * "live.py"). Everything the UI shows from a graph goes through here: bidi controls become
 * visible markers such as ⟨U+202E⟩ and the result is capped at `max` characters with an ellipsis.
 */

/** What a short label shows by default; the full text stays available on demand. */
export const DEFAULT_DISPLAY_MAX = 120;

/** U+202A–U+202E (embeddings/overrides), U+2066–U+2069 (isolates), U+200E/F (marks), U+061C (Arabic letter mark). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

export type DisplayTextOptions = {
  /** Characters (code points) to show before cutting with "…"; `Infinity` only neutralises. */
  max?: number;
};

export type DisplayTextParts = {
  /** What to show: neutralised and capped. */
  text: string;
  /** The whole text, neutralised but not capped (for a title or an expanded view). */
  full: string;
  /** Whether `text` was cut. */
  truncated: boolean;
  /** Length of the original in code points. */
  length: number;
};

export function isBidiControl(ch: string): boolean {
  return ch.length === 1 && BIDI_CONTROL.test(ch);
}

function marker(ch: string): string {
  return `⟨U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** Replace every bidi control with a visible marker, leaving all other text as it is. */
export function neutraliseBidi(s: string): string {
  let out = "";
  for (const ch of s) out += isBidiControl(ch) ? marker(ch) : ch;
  return out;
}

/**
 * Neutralise and cap `s`. Counting is by code point so a cut never splits a surrogate pair, and
 * it happens before markers are inserted so a marker is never cut in half.
 */
export function displayTextParts(s: string, { max = DEFAULT_DISPLAY_MAX }: DisplayTextOptions = {}): DisplayTextParts {
  const limit = Math.max(1, Math.floor(max));
  let text = "";
  let full = "";
  let length = 0;
  for (const ch of s) {
    const shown = isBidiControl(ch) ? marker(ch) : ch;
    full += shown;
    length++;
    if (length <= limit) text += shown;
  }
  const truncated = length > limit;
  return { text: truncated ? `${text.replace(/\s+$/u, "")}…` : text, full, truncated, length };
}

/** The text to show for `s`: bidi controls made visible, capped at `max` (default 120) characters. */
export function displayText(s: string, options: DisplayTextOptions = {}): string {
  return displayTextParts(s, options).text;
}
