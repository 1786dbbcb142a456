import type { PlainJson } from "../api/types";

function show(value: PlainJson): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function AttributeList({ attrs }: { attrs: { [key: string]: PlainJson } }) {
  const entries = Object.entries(attrs);
  if (entries.length === 0) return <p className="muted small">No attributes.</p>;
  return (
    <dl className="attributes">
      {entries.map(([key, value]) => (
        <div key={key} className="attributes__row">
          <dt>{key}</dt>
          <dd className={typeof value === "string" ? undefined : "mono"}>{show(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
