import Link from "next/link";
import type { GraphSummary } from "../api/types";

const numberFormat = new Intl.NumberFormat("en-US");

export function formatImportedAt(iso: string): string {
  const date = new Date(iso);
  return `${date.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`;
}

export function GraphTable({ graphs }: { graphs: GraphSummary[] }) {
  return (
    <div className="card table-card">
      <table className="table" data-testid="graph-table">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Format</th>
            <th scope="col" className="num">Nodes</th>
            <th scope="col" className="num">Edges</th>
            <th scope="col" className="num">Documents</th>
            <th scope="col" className="num">Version</th>
            <th scope="col">Imported</th>
          </tr>
        </thead>
        <tbody>
          {graphs.map((g) => (
            <tr key={g.id}>
              <td className="table__name">
                <Link href={`/graphs/${encodeURIComponent(g.name)}`}>{g.name}</Link>
                {g.sourcePath ? (
                  <span className="table__sub" title={g.sourcePath}>
                    {g.sourcePath}
                  </span>
                ) : (
                  <span className="table__sub">uploaded file</span>
                )}
              </td>
              <td>
                <span className="badge">{g.format}</span>
              </td>
              <td className="num">{numberFormat.format(g.nodes)}</td>
              <td className="num">{numberFormat.format(g.edges)}</td>
              <td className="num">{numberFormat.format(g.documents)}</td>
              <td className="num">v{g.version}</td>
              <td className="nowrap">
                <time dateTime={g.createdAt}>{formatImportedAt(g.createdAt)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
