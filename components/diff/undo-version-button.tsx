"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { VersionInfo } from "../api/diff-types";
import { useRevertVersion } from "../api/revert-version";
import { Spinner } from "../ui/states";

interface UndoVersionButtonProps {
  graphName: string;
  version: VersionInfo;
  /** The graph's current version: the undo becomes the one after it. */
  currentVersion: number;
}

/**
 * Undo asks first, because it is not a silent rollback: it writes a new version. The server
 * decides whether the undo is still possible (later changes may touch the same nodes); its 409
 * message is shown as it is, since it names the conflicting elements.
 */
export function UndoVersionButton({ graphName, version, currentVersion }: UndoVersionButtonProps) {
  const router = useRouter();
  const revert = useRevertVersion(graphName);
  const [isConfirming, setIsConfirming] = useState(false);
  const descriptionId = useId();
  const isRedo = version.kind === "revert";
  // What the undo takes back, in the words the history uses (a redo's own version lists none).
  const undone = version.actions.filter((a) => !a.skipped);

  const confirm = () => {
    // Not mutate's onSuccess: the refreshed history unmounts this button (the version is now
    // undone) before per-call callbacks would run. The promise settles regardless.
    revert
      .mutateAsync(version.version)
      .then(() => {
        setIsConfirming(false);
        // The header's version and counts are rendered on the server.
        router.refresh();
      })
      .catch(() => undefined); // shown from revert.error
  };

  if (!isConfirming) {
    return (
      <div className="undo-box">
        <button
          type="button"
          className="button button--small"
          data-testid="undo-version"
          title={isRedo ? "Undo this undo: apply the original change again, as a new version" : "Reverse this change, as a new version"}
          onClick={() => {
            revert.reset();
            setIsConfirming(true);
          }}
        >
          {isRedo ? `Redo version ${version.revertOf ?? ""}` : "Undo this change"}
        </button>
      </div>
    );
  }
  return (
    <div className="undo-box undo-box--confirming" role="group" aria-label={`Undo version ${version.version}`} data-testid="undo-confirm">
      <p id={descriptionId} className="undo-box__text">
        {isRedo ? `Re-apply what version ${version.revertOf ?? "?"} changed` : `Reverse what version ${version.version} changed`}, as a new
        version {currentVersion + 1}. Version {version.version} stays in the history.
      </p>
      {undone.length > 0 ? (
        <ul className="undo-box__actions small" data-testid="undo-actions" aria-label="What the undo reverses">
          {undone.map((a) => (
            <li key={a.index}>{a.summary}</li>
          ))}
        </ul>
      ) : null}
      <div className="row">
        <button
          type="button"
          className="button button--small button--undo"
          aria-describedby={descriptionId}
          disabled={revert.isPending}
          onClick={confirm}
        >
          {revert.isPending ? (
            <>
              <Spinner size={12} /> Undoing…
            </>
          ) : (
            `Undo as version ${currentVersion + 1}`
          )}
        </button>
        <button type="button" className="button button--small" disabled={revert.isPending} onClick={() => setIsConfirming(false)}>
          Cancel
        </button>
      </div>
      {revert.isError ? (
        <p className="undo-box__error" role="alert" data-testid="undo-error">
          {revert.error.message}
        </p>
      ) : null}
    </div>
  );
}
