"use client";

import Link from "next/link";
import { useEffect } from "react";
import type { VersionInfo } from "../api/diff-types";
import { useVersionDiff } from "../api/diff-versions";
import { useVersions } from "../api/find-versions";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { ChangeList, countChanges } from "./change-list";
import { DiffCanvas } from "./diff-canvas";
import { VersionCard } from "./version-card";
import { VersionCompare } from "./version-compare";
import { previousOf, versionsHref } from "./version-format";
import { warmUpDiffDrawing } from "./warm-up";

interface VersionDiffViewProps {
  graphName: string;
  from: number;
  to: number;
  initialVersions?: VersionInfo[];
}

function DiffBody({ graphName, from, to }: { graphName: string; from: number; to: number }) {
  const diff = useVersionDiff(graphName, { from, to });
  useEffect(warmUpDiffDrawing, []);
  if (from === to) {
    return (
      <div className="card" data-testid="diff-empty">
        <EmptyState title={to === 1 ? "Version 1 is the import" : "Same version on both sides"}>
          <p className="muted">
            {to === 1 ? "There is no earlier version to compare it with. Pick a later version under To." : "Pick two different versions to see what changed between them."}
          </p>
        </EmptyState>
      </div>
    );
  }
  if (diff.isPending) return <LoadingState label={`Computing the changes from version ${from} to ${to}…`} />;
  if (diff.isError) {
    return (
      <ErrorState
        title="Could not compute the diff"
        message={diff.error.message}
        action={
          <button type="button" className="button" onClick={() => void diff.refetch()}>
            Try again
          </button>
        }
      />
    );
  }
  const changes = countChanges(diff.data.diff);
  if (changes === 0) {
    return (
      <div className="card" data-testid="diff-empty">
        <EmptyState title="No differences">
          <p className="muted">
            Versions {from} and {to} hold the same nodes and edges: every action was skipped, or later versions cancel each other out.
          </p>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className={`stack stack--tight${diff.isPlaceholderData ? " is-refreshing" : ""}`} aria-busy={diff.isPlaceholderData}>
      <section className="card diff-card" aria-label="Drawing of the changes">
        <DiffCanvas graph={diff.data.graph} height={560} />
      </section>
      <section className="card diff-card" aria-labelledby="changes-heading">
        <h2 id="changes-heading" className="diff-card__title">
          {changes} change{changes === 1 ? "" : "s"} from version {from} to {to}
        </h2>
        <ChangeList diff={diff.data.diff} />
      </section>
    </div>
  );
}

/** One version's change (version − 1 → version) or any two versions compared. */
export function VersionDiffView({ graphName, from, to, initialVersions }: VersionDiffViewProps) {
  const versions = useVersions(graphName, initialVersions);
  const list = versions.data ?? [];
  const target = list.find((v) => v.version === to);
  // A version's own change, or version 1 (the import, nothing before it): show the version itself.
  const isOneVersion = from === to - 1 || (to === 1 && from === 1);
  return (
    <div className="stack stack--tight" data-testid="version-diff">
      <div className="row row--wrap version-diff__bar">
        <Link href={versionsHref(graphName)} className="small">
          ← All versions
        </Link>
        {list.length > 0 ? <VersionCompare graphName={graphName} versions={list} from={from} to={to} /> : null}
      </div>
      {versions.isError ? <ErrorState title="Could not load the versions" message={versions.error.message} /> : null}
      {target && isOneVersion ? (
        <VersionCard graphName={graphName} version={target} previous={previousOf(list, to)} currentVersion={list[0]?.version ?? to} isLinked={false} />
      ) : (
        <h2 className="version-diff__title">
          Changes from version {from} to version {to}
          {from > to ? <span className="muted small"> (backwards in time: + marks what version {to} has and version {from} lacks)</span> : null}
        </h2>
      )}
      <DiffBody graphName={graphName} from={from} to={to} />
    </div>
  );
}
