import { GraphTable } from "@/components/graphs/graph-table";
import { GraphsEmptyState } from "@/components/graphs/graphs-empty-state";
import { ImportPanel } from "@/components/graphs/import-panel";
import { findGraphs } from "@/lib/server/graphs/graph-store";
import { requirePageActor } from "@/app/_lib/page-actor";
import { can } from "@/lib/auth/permissions";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

export default async function GraphsPage() {
  const actor = await requirePageActor();
  const graphs = await findGraphs();
  return (
    <div className="stack">
      <div className="page-heading">
        <h1>Graphs</h1>
        <p className="muted">
          Knowledge graphs stored in this Refinery. Open one to search its nodes, walk their neighbourhoods and read the
          source text behind them.
        </p>
      </div>
      {graphs.length === 0 ? <GraphsEmptyState /> : <GraphTable graphs={graphs} />}
      {can(actor, "import") && <ImportPanel allowServerPaths={can(actor, "admin")} />}
    </div>
  );
}
