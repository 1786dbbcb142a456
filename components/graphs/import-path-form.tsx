"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { useImportGraphFromPath } from "../api/import-graph";
import type { ImportFromPathInput } from "../api/import-graph";
import { Spinner } from "../ui/states";
import { ImportFeedback } from "./import-feedback";
import { ImportProgressLines } from "./import-progress";

const FORMATS = ["graphify", "triples", "bundle"] as const;

function formatOf(value: FormDataEntryValue | null): ImportFromPathInput["format"] {
  return FORMATS.find((f) => f === value);
}

function text(value: FormDataEntryValue | null): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

export function ImportPathForm() {
  const router = useRouter();
  const mutation = useImportGraphFromPath();

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input: ImportFromPathInput = {
      path: text(form.get("path")) ?? "",
      name: text(form.get("name")),
      format: formatOf(form.get("format")),
      root: text(form.get("root")),
    };
    mutation.mutate(input, {
      onSuccess: (report) => router.push(`/graphs/${encodeURIComponent(report.graph.name)}`),
    });
  }

  const pending = mutation.isPending;
  return (
    <form className="form" onSubmit={onSubmit} aria-busy={pending}>
      <div className="field field--wide">
        <label htmlFor="import-path">Path on the server</label>
        <input
          id="import-path"
          name="path"
          required
          placeholder="/data/project/graphify-out/graph.json"
          autoComplete="off"
          spellCheck={false}
        />
        <p className="hint">A graph.json, a triple file, or a folder holding graph.json, graphify-out/ or a triples.jsonl bundle.</p>
      </div>
      <div className="form__row">
        <div className="field">
          <label htmlFor="import-name">Name</label>
          <input id="import-name" name="name" placeholder="from the file or folder name" autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="import-format">Format</label>
          <select id="import-format" name="format" defaultValue="">
            <option value="">Detect automatically</option>
            <option value="graphify">graphify JSON</option>
            <option value="triples">Triple file</option>
            <option value="bundle">Bundle folder (JSONL)</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="import-root">Source root</label>
          <input id="import-root" name="root" placeholder="beside graph.json" autoComplete="off" spellCheck={false} />
        </div>
      </div>
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? (
            <>
              <Spinner size={14} /> Importing…
            </>
          ) : (
            "Import"
          )}
        </button>
        <p className="hint">Source root: for graphify graphs, the folder holding the files the graph points at.</p>
      </div>
      <ImportProgressLines active={pending} name={typeof mutation.variables?.name === "string" ? mutation.variables.name : undefined} />
      <ImportFeedback error={mutation.error} report={mutation.data} />
    </form>
  );
}
