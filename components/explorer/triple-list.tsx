import type { NodeTriple } from "../api/types";

interface TripleListProps {
  triples: NodeTriple[];
  nodeId: string;
  onSelect: (nodeId: string) => void;
}

function End({ id, label, nodeId, onSelect }: { id: string; label: string; nodeId: string; onSelect: (id: string) => void }) {
  if (id === nodeId) return <span className="triple__self">{label}</span>;
  return (
    <button type="button" className="link-button triple__other" onClick={() => onSelect(id)} title={id}>
      {label}
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
          <span className="triple__relation">{t.relation}</span>
          <End id={t.object_id} label={t.object} nodeId={nodeId} onSelect={onSelect} />
        </li>
      ))}
    </ul>
  );
}
