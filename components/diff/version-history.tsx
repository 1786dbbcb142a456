"use client";

import type { VersionInfo } from "../api/diff-types";
import { useVersions } from "../api/find-versions";
import { EmptyState, ErrorState, LoadingState } from "../ui/states";
import { VersionCard } from "./version-card";
import { previousOf } from "./version-format";

interface VersionHistoryProps {
  graphName: string;
  /** Rendered by the server, so the list is there on first paint. */
  initialVersions?: VersionInfo[];
}

/** Every version of a graph, newest first: a change is never lost, an undo is a version too. */
export function VersionHistory({ graphName, initialVersions }: VersionHistoryProps) {
  const versions = useVersions(graphName, initialVersions);
  if (versions.isPending) return <LoadingState label="Loading the versions…" />;
  if (versions.isError) {
    return (
      <ErrorState
        title="Could not load the versions"
        message={versions.error.message}
        action={
          <button type="button" className="button" onClick={() => void versions.refetch()}>
            Try again
          </button>
        }
      />
    );
  }
  const list = versions.data;
  if (list.length === 0) {
    return (
      <div className="card">
        <EmptyState title="No versions">
          <p className="muted">This graph has no recorded versions; importing it again creates version 1.</p>
        </EmptyState>
      </div>
    );
  }
  const current = list[0]?.version ?? 1;
  const changes = list.filter((v) => v.kind !== "import").length;
  return (
    <div className="stack stack--tight">
      <p className="muted small versions-caption">
        {list.length} version{list.length === 1 ? "" : "s"}, newest first.{" "}
        {changes === 0
          ? "Nothing has been applied yet: approved proposals become new versions here."
          : "Each applied proposal and each undo is a version of its own; undoing never deletes history."}
      </p>
      <ol className="version-list" data-testid="version-list">
        {list.map((v) => (
          <li key={v.version}>
            <VersionCard graphName={graphName} version={v} previous={previousOf(list, v.version)} currentVersion={current} />
          </li>
        ))}
      </ol>
    </div>
  );
}
