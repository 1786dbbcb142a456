"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { useSyncMemoryFiles } from "../api/add-questions";
import type { SyncMemoryResult } from "../api/run-types";
import { Spinner } from "../ui/states";
import { useSingleFlight } from "../ui/use-single-flight";

function describe(result: SyncMemoryResult): string {
  if (result.files === 0) return "No query_*.md memory files in that folder.";
  const parts = [`Read ${result.files} memory file${result.files === 1 ? "" : "s"}: ${result.added.length} added`];
  if (result.existing.length > 0) parts.push(`${result.existing.length} already queued`);
  if (result.unreadable.length > 0) parts.push(`${result.unreadable.length} without a question (${result.unreadable.join(", ")})`);
  return `${parts.join(", ")}.`;
}

export function MemoryImportForm({ graphName, sourcePath }: { graphName: string; sourcePath: string | null }) {
  const router = useRouter();
  const sync = useSyncMemoryFiles(graphName);
  const once = useSingleFlight();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const dir = new FormData(event.currentTarget).get("dir");
    // refresh(): the server-rendered graph header counts the questions.
    once(() => sync.mutateAsync(typeof dir === "string" && dir.trim() ? dir.trim() : undefined).then(() => router.refresh()));
  }

  return (
    <form className="form" onSubmit={onSubmit} aria-busy={sync.isPending}>
      <div className="field">
        <label htmlFor="memory-dir">Folder</label>
        <input
          id="memory-dir"
          name="dir"
          defaultValue={sourcePath ?? ""}
          required={!sourcePath}
          placeholder="/data/project (holding graphify-out/memory)"
          autoComplete="off"
          spellCheck={false}
        />
        <p className="hint">A project folder, its graphify-out folder, or the memory folder itself. Each query_*.md adds its question.</p>
      </div>
      <div className="form__actions">
        <button type="submit" className="button" disabled={sync.isPending}>
          {sync.isPending ? <Spinner size={14} /> : null}
          Import memory files
        </button>
      </div>
      {sync.error ? (
        <div className="alert alert--error" role="alert">
          <strong>Import failed</strong>
          <p className="alert__message">{sync.error.message}</p>
        </div>
      ) : sync.data ? (
        <p className="alert alert--success" role="status" data-testid="memory-result">
          {describe(sync.data)}
        </p>
      ) : null}
    </form>
  );
}
