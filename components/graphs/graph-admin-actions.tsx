"use client";

import { useState } from "react";
import { usePathname, useRouter } from "next/navigation";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fetchJson } from "../api/fetch-json";
import { graphKeys } from "../api/graph-keys";
import { Modal } from "../proposals/modal";
import { Spinner } from "../ui/states";

type Open = "rename" | "delete" | null;

interface Renamed {
  name: string;
  previousName: string;
}

interface Deleted {
  name: string;
  versions: number;
  nodes: number;
  edges: number;
}

function graphUrl(name: string): string {
  return `/api/graphs/${encodeURIComponent(name)}`;
}

/**
 * Rename and delete, for admins (the server checks the role and audits both). Delete asks for
 * the graph's name typed again: it takes every version, run and proposal with it.
 */
export function GraphAdminActions({ graph }: { graph: string }) {
  const [open, setOpen] = useState<Open>(null);
  const [newName, setNewName] = useState(graph);
  const [confirm, setConfirm] = useState("");
  const router = useRouter();
  const pathname = usePathname();
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: (name: string) => fetchJson<Renamed>(graphUrl(graph), { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }) }),
    onSuccess: (result) => {
      void queryClient.invalidateQueries({ queryKey: graphKeys.all });
      // Stay on the same tab of the renamed graph.
      const prefix = `/graphs/${encodeURIComponent(result.previousName)}`;
      const rest = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : "";
      setOpen(null);
      router.replace(`/graphs/${encodeURIComponent(result.name)}${rest}`);
      router.refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => fetchJson<Deleted>(graphUrl(graph), { method: "DELETE", headers: { "content-type": "application/json" }, body: JSON.stringify({ confirm }) }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: graphKeys.all });
      setOpen(null);
      router.push(`/?deleted=${encodeURIComponent(graph)}`);
      router.refresh();
    },
  });
  const close = () => {
    setOpen(null);
    rename.reset();
    remove.reset();
  };
  return (
    <div className="graph-admin" data-testid="graph-admin">
      <button
        type="button"
        className="button button--small"
        onClick={() => {
          setNewName(graph);
          setOpen("rename");
        }}
        data-testid="rename-graph"
      >
        Rename
      </button>
      <button
        type="button"
        className="button button--small button--danger-outline"
        onClick={() => {
          setConfirm("");
          setOpen("delete");
        }}
        data-testid="delete-graph"
      >
        Delete
      </button>
      {open === "rename" ? (
        <Modal title={`Rename ${graph}`} onClose={close} testId="rename-dialog">
          <form
            className="form"
            onSubmit={(event) => {
              event.preventDefault();
              if (newName.trim() !== "" && !rename.isPending) rename.mutate(newName.trim());
            }}
          >
            <div className="field">
              <label htmlFor="graph-new-name">New name</label>
              <input id="graph-new-name" value={newName} maxLength={100} onChange={(e) => setNewName(e.target.value)} data-autofocus data-testid="rename-input" />
              <span className="hint">Its versions, runs and proposals keep working under the new name; links to the old name stop working.</span>
            </div>
            {rename.error ? (
              <p className="inline-error" role="alert">
                {rename.error.message}
              </p>
            ) : null}
            <div className="form__actions">
              <button type="submit" className="button button--primary" disabled={newName.trim() === "" || newName.trim() === graph || rename.isPending} data-testid="rename-save">
                {rename.isPending ? <Spinner size={12} /> : null}
                Rename
              </button>
              <button type="button" className="button" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        </Modal>
      ) : null}
      {open === "delete" ? (
        <Modal title={`Delete ${graph}?`} onClose={close} tone="danger" testId="delete-dialog">
          <form
            className="form"
            onSubmit={(event) => {
              event.preventDefault();
              if (confirm.trim() === graph && !remove.isPending) remove.mutate();
            }}
          >
            <p>
              This deletes <strong>{graph}</strong> with every version, its source files or passages, its questions, runs and proposals. It cannot be undone;
              the audit log keeps what happened.
            </p>
            <div className="field">
              <label htmlFor="graph-delete-confirm">Type the graph&apos;s name to confirm</label>
              <input id="graph-delete-confirm" value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="off" data-autofocus data-testid="delete-confirm" />
            </div>
            {remove.error ? (
              <p className="inline-error" role="alert">
                {remove.error.message}
              </p>
            ) : null}
            <div className="form__actions">
              <button type="submit" className="button button--danger" disabled={confirm.trim() !== graph || remove.isPending} data-testid="delete-save">
                {remove.isPending ? <Spinner size={12} /> : null}
                Delete for good
              </button>
              <button type="button" className="button" onClick={close}>
                Cancel
              </button>
            </div>
          </form>
        </Modal>
      ) : null}
    </div>
  );
}
