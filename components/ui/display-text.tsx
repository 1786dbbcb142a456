"use client";

import { useState } from "react";
import { DEFAULT_DISPLAY_MAX, displayText, displayTextParts } from "@/lib/text/display-text";

export { displayText, DEFAULT_DISPLAY_MAX };

/** A tooltip is for a glance: past this the expanded view (`expandable`) carries the rest. */
const TITLE_MAX = 2_000;

type Props = {
  text: string;
  /** Characters shown before "…" (default 120). */
  max?: number;
  /** Offer a button that shows the whole (neutralised) text; off inside links and buttons. */
  expandable?: boolean;
  className?: string;
};

/**
 * Shows graph text safely: bidi controls as visible ⟨U+202E⟩ markers, capped at `max` characters
 * with the full text in the title (and, with `expandable`, behind a button). Long unbroken text
 * wraps anywhere so a label can never widen the page.
 */
export function DisplayText({ text, max = DEFAULT_DISPLAY_MAX, expandable = false, className }: Props) {
  const [expanded, setExpanded] = useState(false);
  const parts = displayTextParts(text, { max });
  const hasMarkers = parts.full !== text;
  const title = parts.truncated || hasMarkers ? displayText(text, { max: TITLE_MAX }) : undefined;
  const shown = expanded ? parts.full : parts.text;
  return (
    <span className={className ? `display-text ${className}` : "display-text"} title={title} style={{ overflowWrap: "anywhere", wordBreak: "break-word" }}>
      {shown}
      {expandable && parts.truncated ? (
        <>
          {" "}
          <button type="button" className="link-button" onClick={() => setExpanded((v) => !v)} aria-expanded={expanded}>
            {expanded ? "show less" : `show all ${parts.length.toLocaleString("en")} characters`}
          </button>
        </>
      ) : null}
    </span>
  );
}
