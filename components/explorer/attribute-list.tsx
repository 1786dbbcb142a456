import type { PlainJson } from "../api/types";
import { DisplayText, displayText } from "../ui/display-text";

function show(value: PlainJson): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function AttributeList({ attrs }: { attrs: { [key: string]: PlainJson } }) {
  // Object.entries: own keys only, so an attribute named "__proto__" or "constructor" is just a row.
  const entries = Object.entries(attrs);
  if (entries.length === 0) return <p className="muted small">No attributes.</p>;
  return (
    <dl className="attributes">
      {entries.map(([key, value]) => (
        <div key={key} className="attributes__row">
          <dt>{displayText(key, { max: 80 })}</dt>
          <dd className={typeof value === "string" ? undefined : "mono"}>
            <DisplayText text={show(value)} max={300} expandable />
          </dd>
        </div>
      ))}
    </dl>
  );
}
