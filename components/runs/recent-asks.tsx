"use client";

import Link from "next/link";
import { useAsks } from "../api/asks";
import { AskList } from "../ask/ask-list";

const SHOWN = 5;

/** The Runs tab lists asks too (stored like runs); the Ask tab has them all. */
export function RecentAsks({ graphName }: { graphName: string }) {
  const asks = useAsks(graphName);
  const base = `/graphs/${encodeURIComponent(graphName)}/ask`;
  if (!asks.data || asks.data.length === 0) return null;
  return (
    <section className="card recent-asks" aria-labelledby="recent-asks-title" data-testid="recent-asks">
      <div className="row row--wrap">
        <h2 id="recent-asks-title" className="card__title">
          Asks
        </h2>
        <Link href={base} className="small">
          {asks.data.length > SHOWN ? `All ${asks.data.length} asks on the Ask tab` : "Ask tab"}
        </Link>
      </div>
      <AskList asks={asks.data.slice(0, SHOWN)} selectedId={null} hrefOf={(id) => `${base}?ask=${encodeURIComponent(id)}`} />
    </section>
  );
}
