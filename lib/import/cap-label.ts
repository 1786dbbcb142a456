/**
 * The longest label an import keeps as a node's working label. A 100,000-character label made
 * pages take 30–60 s and 690,000 px wide, and would flood every prompt and search index that
 * uses labels. Past the cap the label is shortened (with "…") and the import reports how many
 * were; for graphify files the record's full `label` stays in the node's attributes, so export
 * stays lossless and the full text is shown on demand. Node ids are never changed.
 */
export const MAX_LABEL_CHARS = 1_000;

export interface LabelCapOptions {
  /** Default MAX_LABEL_CHARS. */
  maxLabelChars?: number;
  /** Told once per file when labels were shortened (the import report lists it). */
  onWarning?: (message: string) => void;
}

/** `label` cut to `max` code points (never inside a surrogate pair) plus "…", or as is. */
export function capLabel(label: string, max = MAX_LABEL_CHARS): string {
  if (label.length <= max) return label;
  let out = "";
  let n = 0;
  for (const ch of label) {
    if (n === max) return `${out}…`;
    out += ch;
    n++;
  }
  return out;
}

/** Collects the ids whose labels were cut and reports them once, after the file is read. */
export function createLabelCapper(source: string, options: LabelCapOptions = {}) {
  const max = options.maxLabelChars ?? MAX_LABEL_CHARS;
  const cut: string[] = [];
  return {
    cap(id: string, label: string): string {
      const capped = capLabel(label, max);
      if (capped !== label) cut.push(id);
      return capped;
    },
    report(): void {
      if (cut.length === 0 || !options.onWarning) return;
      const shown = cut.slice(0, 3).map((id) => JSON.stringify(capLabel(id, 60)));
      const more = cut.length > 3 ? ` and ${cut.length - 3} more` : "";
      options.onWarning(
        `${source}: ${cut.length} label${cut.length === 1 ? "" : "s"} longer than ${max.toLocaleString("en-US")} characters shortened to that length (nodes ${shown.join(", ")}${more}); the full text stays in the node's attributes where the file had it`,
      );
    },
  };
}
