import type { NodeTriple } from "../api/types";
import { DisplayText, displayText } from "../ui/display-text";

/** A triple's ends share a line with the relation: shorter than a heading. */
const END_MAX = 80;

interface TripleListProps {
  triples: NodeTriple[];
  nodeId: string;
  onSelect: (nodeId: string) => void;
}

function End({ id, label, nodeId, onSelect }: { id: string; label: string; nodeId: string; onSelect: (id: string) => void }) {
  if (id === nodeId) return <DisplayText className="triple__self" text={label} max={END_MAX} />;
  return (
    <button type="button" className="link-button triple__other" onClick={() => onSelect(id)} title={displayText(id, { max: 500 })} style={{ overflowWrap: "anywhere" }}>
      {displayText(label, { max: END_MAX })}
    </button>
  );
}

export function TripleList({ triples, nodeId, onSelect }: TripleListProps) {
  if (triples.length === 0) return <p className="muted small">No edges touch this node.</p>;
  return (
    <ul className="triples" data-testid="triples">
      {triples.map((t) => (
        <li key={t.key} className="triple">
          <End id={t.subject_id} label={t.subject} nodeId={nodeId} onSelect={onSelect} />
          <DisplayText className="triple__relation" text={t.relation} max={END_MAX} />
          <End id={t.object_id} label={t.object} nodeId={nodeId} onSelect={onSelect} />
        </li>
      ))}
    </ul>
  );
}
