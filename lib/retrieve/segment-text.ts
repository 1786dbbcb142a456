/**
 * Short strings of numbered items (node labels, source paths), searched by substring as one
 * "\n"-joined text: one `indexOf` pass finds every item holding a term, far faster than a loop
 * over the items. A graph's next version replaces a few items' strings: `with` lays them over the
 * text in O(change) (the older version keeps its own), and folds them into a new text once they
 * are a sixteenth of it.
 */

const LAYER_SHARE = 1 / 16;
const MIN_LAYER = 256;

export class SegmentText {
  private constructor(
    private readonly text: string,
    /** Where each segment starts in `text`, ascending. */
    private readonly starts: Int32Array,
    /** The item each segment belongs to. */
    private readonly items: Int32Array,
    /** Items whose string changed since `text` was joined: their string now (null: none). */
    private readonly layer: ReadonlyMap<number, string | null>,
  ) {}

  /** Items and their strings; strings must hold no "\n" (callers replace it). */
  static of(items: readonly number[], strings: readonly string[]): SegmentText {
    const starts = new Int32Array(strings.length);
    let at = 0;
    strings.forEach((s, i) => {
      starts[i] = at;
      at += s.length + 1;
    });
    return new SegmentText(strings.join("\n"), starts, Int32Array.from(items), new Map());
  }

  /** The items whose string contains `term` (no "\n" in it): the base text's in item order, then the changed ones. */
  find(term: string): number[] {
    const hits: number[] = [];
    const { text, starts, items, layer } = this;
    let pos = text.indexOf(term);
    while (pos !== -1) {
      const seg = segmentAt(starts, pos);
      const item = items[seg] ?? 0;
      if (!layer.has(item)) hits.push(item);
      const next = starts[seg + 1];
      if (next === undefined) break;
      pos = text.indexOf(term, next);
    }
    for (const [item, s] of layer) if (s !== null && s.includes(term)) hits.push(item);
    return hits;
  }

  /** The text with some items' strings replaced (null: the item has none now); this one is not changed. */
  with(changes: ReadonlyMap<number, string | null>): SegmentText {
    if (changes.size === 0) return this;
    const layer = new Map(this.layer);
    for (const [item, s] of changes) layer.set(item, s);
    if (layer.size <= Math.max(MIN_LAYER, LAYER_SHARE * this.items.length)) return new SegmentText(this.text, this.starts, this.items, layer);
    const items: number[] = [];
    const strings: string[] = [];
    for (let seg = 0; seg < this.items.length; seg++) {
      const item = this.items[seg] ?? 0;
      if (layer.has(item)) continue;
      items.push(item);
      strings.push(this.text.slice(this.starts[seg], (this.starts[seg + 1] ?? this.text.length + 1) - 1));
    }
    for (const [item, s] of layer) {
      if (s === null) continue;
      items.push(item);
      strings.push(s);
    }
    return SegmentText.of(items, strings);
  }
}

/** Index of the segment holding `pos` in a "\n"-joined text whose segments start at `starts`. */
function segmentAt(starts: Int32Array, pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
