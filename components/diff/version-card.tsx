import Link from "next/link";
import type { VersionInfo } from "../api/diff-types";
import { canUndo } from "../api/diff-types";
import { formatTimestamp } from "../runs/run-format";
import { UndoVersionButton } from "./undo-version-button";
import { KIND_HINT, KIND_LABEL, formatCount, formatDelta, messageSentence, versionHref } from "./version-format";

interface VersionCardProps {
  graphName: string;
  version: VersionInfo;
  /** The version before it, for the node and edge deltas. */
  previous?: VersionInfo;
  currentVersion: number;
  /** On the history page the version number links to its diff; on the diff page it is the page itself. */
  isLinked?: boolean;
}

export function KindBadge({ kind }: { kind: VersionInfo["kind"] }) {
  return (
    <span className={`version-kind version-kind--${kind}`} title={KIND_HINT[kind]} data-testid="version-kind">
      {KIND_LABEL[kind]}
    </span>
  );
}

function Counts({ version, previous }: { version: VersionInfo; previous?: VersionInfo }) {
  const delta = (now: number, before: number | undefined) =>
    before === undefined || now === before ? null : <span className={now > before ? "version-delta version-delta--up" : "version-delta version-delta--down"}>{formatDelta(now - before)}</span>;
  return (
    <span className="version__counts">
      {formatCount(version.nodes)} nodes {delta(version.nodes, previous?.nodes)} · {formatCount(version.edges)} edges{" "}
      {delta(version.edges, previous?.edges)}
    </span>
  );
}

/** One version: what made it, what it did, how it relates to undos, and the way to undo it. */
export function VersionCard({ graphName, version, previous, currentVersion, isLinked = true }: VersionCardProps) {
  const title = `Version ${version.version}`;
  const isCurrent = version.version === currentVersion;
  return (
    <article
      className={`version${version.revertedBy !== null ? " version--undone" : ""}`}
      data-testid="version-item"
      data-version={version.version}
      aria-label={title}
    >
      <header className="version__head">
        <h2 className="version__title">
          {isLinked && version.version > 1 ? <Link href={versionHref(graphName, version.version)}>{title}</Link> : title}
        </h2>
        <KindBadge kind={version.kind} />
        {isCurrent ? <span className="badge badge--quiet">current</span> : null}
        {version.revertOf !== null ? (
          <Link className="version-mark version-mark--undo-of" href={versionHref(graphName, version.revertOf)} data-testid="undo-of">
            undo of v{version.revertOf}
          </Link>
        ) : null}
        {version.revertedBy !== null ? (
          <Link className="version-mark version-mark--undone" href={versionHref(graphName, version.revertedBy)} data-testid="undone-by">
            undone by v{version.revertedBy}
          </Link>
        ) : null}
        <span className="version__when muted small">
          <time dateTime={version.createdAt}>{formatTimestamp(version.createdAt)}</time>
          {version.actor ? <> · by {version.actor}</> : null}
        </span>
      </header>
      <p className="version__message">{messageSentence(version.message)}</p>
      <div className="version__meta muted small">
        <Counts version={version} previous={previous} />
        {version.proposalId ? (
          <>
            {" · "}
            <Link href={`/proposals/${encodeURIComponent(version.proposalId)}`} data-testid="version-proposal">
              proposal <span className="mono">{version.proposalId}</span>
            </Link>
          </>
        ) : null}
      </div>
      {version.actions.length > 0 ? (
        <ol className="version__actions" data-testid="version-actions">
          {version.actions.map((a) => (
            <li key={a.index} className={a.skipped ? "is-skipped" : undefined}>
              <span className="version__action-index">{a.index + 1}.</span> {a.summary}
              {a.skipped && !/^no change/i.test(a.summary) ? <span className="muted"> (skipped: no change)</span> : null}
            </li>
          ))}
        </ol>
      ) : null}
      <footer className="version__foot">
        {version.version > 1 && isLinked ? (
          <Link href={versionHref(graphName, version.version)} className="button button--small" data-testid="view-diff">
            See what changed
          </Link>
        ) : null}
        {canUndo(version) ? <UndoVersionButton graphName={graphName} version={version} currentVersion={currentVersion} /> : null}
      </footer>
    </article>
  );
}
