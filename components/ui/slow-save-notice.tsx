"use client";

import { useIsMutating } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useImportsInProgress } from "@/components/api/import-graph";

/** A save still pending after this long gets the notice. */
export const SLOW_SAVE_MS = 3000;

/**
 * A save (any mutation but those marked OWN_PROGRESS, components/api/own-progress.ts) still
 * waiting after SLOW_SAVE_MS says so, and why it may wait: on SQLite one write goes through at a
 * time, so an approval or a comment made while an import writes its graph waits for the import's
 * commit. When this person may see the server's imports (`useImportsInProgress`) and one is
 * running, the notice names it. `oneWriter`: the server's database is SQLite (from DATABASE_URL,
 * read by the layout); on PostgreSQL writes do not queue behind an import, and the notice says
 * only that the server is still working. Nothing is lost meanwhile: the save goes through when
 * the write ahead of it ends, or fails with the server's own error after its busy wait (30 s).
 */
export function SlowSaveNotice({ oneWriter }: { oneWriter: boolean }) {
  const pending = useIsMutating({ predicate: (m) => m.options.meta?.ownProgress !== true });
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    if (pending === 0) return;
    const since = Date.now();
    const timer = setInterval(() => setElapsed(Date.now() - since), 500);
    return () => {
      clearInterval(timer);
      setElapsed(0);
    };
  }, [pending > 0]); // eslint-disable-line react-hooks/exhaustive-deps -- restart only when saving starts or stops, not per extra save
  const slow = pending > 0 && elapsed >= SLOW_SAVE_MS;
  // A person without the import right gets a 403 here: no import is named then.
  const imports = useImportsInProgress(slow && oneWriter);
  if (!slow) return null;
  const running = oneWriter ? (imports.data ?? []) : [];
  const seconds = Math.floor(elapsed / 1000);
  return (
    <div className="slow-save" role="status" aria-live="polite" data-testid="slow-save">
      <strong>Still saving… {seconds} s.</strong>{" "}
      {running.length > 0 ? (
        <>
          An import is writing to the database ({running.map((r) => `${r.name ?? "a new graph"}: ${r.message}`).join("; ")}). With SQLite one write goes through at a time, so this one waits for the
          import to finish.
        </>
      ) : oneWriter ? (
        <>The server is still working on it: a large graph takes longer, and with SQLite a write waits while another one (an import, say) finishes.</>
      ) : (
        <>The server is still working on it: a large graph takes longer.</>
      )}{" "}
      Nothing is lost; if it cannot be saved, you will see why.
    </div>
  );
}
