import type { CSSProperties } from "react";
import type { DiffCounts } from "./diff-elements";
import { DIFF_COLORS } from "./diff-style";

interface LegendItem {
  key: string;
  prefix: string;
  label: string;
  count: number;
  node: CSSProperties;
  line: CSSProperties;
  note?: string;
}

function items(counts: DiffCounts): LegendItem[] {
  const thick = (color: string): CSSProperties => ({ borderTopColor: color, borderTopWidth: 4 });
  return [
    {
      key: "added",
      prefix: "+",
      label: "added",
      count: counts.added,
      node: { background: DIFF_COLORS.added.fill, borderColor: DIFF_COLORS.added.border },
      line: thick(DIFF_COLORS.added.line),
    },
    {
      key: "removed",
      prefix: "−",
      label: "removed",
      count: counts.removed,
      node: { background: DIFF_COLORS.removed.fill, borderColor: DIFF_COLORS.removed.border },
      line: thick(DIFF_COLORS.removed.line),
    },
    {
      key: "changed",
      prefix: "~",
      label: "changed / rewired",
      count: counts.changed,
      node: { background: DIFF_COLORS.changed.fill, borderColor: DIFF_COLORS.changed.border },
      line: thick(DIFF_COLORS.changed.line),
      note: "rewired edges are drawn at their new endpoints; hover one, or pick Before, for the old ones",
    },
    {
      key: "merged",
      prefix: "− A → B",
      label: "merged into",
      count: counts.merged,
      node: { background: "rgb(248 113 113 / 45%)", borderColor: DIFF_COLORS.removed.line },
      line: { borderTopColor: DIFF_COLORS.removed.border, borderTopWidth: 3, borderTopStyle: "dashed" },
      note: "the faded node is gone; the arrow points to the node that absorbed it",
    },
    {
      key: "context",
      prefix: "",
      label: "unchanged context",
      count: counts.context,
      node: { background: DIFF_COLORS.context.fill, borderColor: DIFF_COLORS.context.fill, width: 10, height: 10, borderWidth: 1 },
      line: { borderTopColor: DIFF_COLORS.context.line, borderTopWidth: 1 },
    },
  ];
}

/** What each colour, width and prefix means, with how many elements carry it. */
export function DiffLegend({ counts, truncated }: { counts: DiffCounts; truncated: boolean }) {
  return (
    <div className="diff-legend" data-testid="diff-legend">
      <ul className="diff-legend__items">
        {items(counts).map((item) => (
          <li key={item.key} className={`diff-legend__item${item.count === 0 ? " is-empty" : ""}`} data-status={item.key} title={item.note}>
            <span className="diff-legend__node" style={item.node} aria-hidden="true" />
            <span className="diff-legend__line" style={item.line} aria-hidden="true" />
            {item.prefix ? <code className="diff-legend__prefix">{item.prefix}</code> : null}
            <span>
              {item.label} <span className="muted">({item.count})</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="muted small diff-legend__note">
        Changes are drawn thick and named with a prefix; context is thin and grey. Rewired edges are drawn at their new
        endpoints: hover one, or choose Before, to see where they were.
        {truncated ? " Some unchanged context was left out to keep the drawing readable." : ""}
      </p>
    </div>
  );
}
