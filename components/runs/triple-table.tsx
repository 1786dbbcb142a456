import type { Triple } from "@/lib/graph/model";

/** Triples as a table, in stored direction; names in `marked` (the question's or the answers) are highlighted. */
export function TripleTable({ triples, marked, keys, testId }: { triples: readonly Triple[]; marked: ReadonlySet<string>; keys?: readonly string[]; testId: string }) {
  return (
    <div className="subgraph__table">
      <table className="table table--compact" data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">Relation</th>
            <th scope="col">Object</th>
          </tr>
        </thead>
        <tbody>
          {triples.map((t, i) => (
            <tr key={keys?.[i] ?? i}>
              <td className={marked.has(t.subject_id) ? "is-asked" : undefined}>{t.subject}</td>
              <td className="mono small">{t.relation}</td>
              <td className={marked.has(t.object_id) ? "is-asked" : undefined}>{t.object}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
