"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { FormEvent } from "react";
import { useUploadGraph } from "../api/import-graph";
import type { UploadGraphInput } from "../api/import-graph";
import { Spinner } from "../ui/states";
import { ImportFeedback } from "./import-feedback";

/** Same limit as the server; checked here too so a huge file fails before it is sent. */
const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;

export function ImportUploadForm() {
  const router = useRouter();
  const mutation = useUploadGraph();
  const [tooLarge, setTooLarge] = useState<Error | null>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (!(file instanceof File) || file.name === "") return;
    if (file.size > MAX_UPLOAD_BYTES) {
      setTooLarge(new Error(`${file.name}: ${(file.size / 1024 / 1024).toFixed(1)} MiB is over the 512 MiB import limit`));
      return;
    }
    setTooLarge(null);
    const name = form.get("name");
    const format = form.get("format");
    const input: UploadGraphInput = {
      file,
      name: typeof name === "string" && name.trim() !== "" ? name.trim() : undefined,
      format: format === "graphify" || format === "triples" ? format : undefined,
    };
    mutation.mutate(input, {
      onSuccess: (report) => router.push(`/graphs/${encodeURIComponent(report.graph.name)}`),
    });
  }

  const pending = mutation.isPending;
  return (
    <form className="form" onSubmit={onSubmit} aria-busy={pending}>
      <div className="field field--wide">
        <label htmlFor="upload-file">File</label>
        <input id="upload-file" name="file" type="file" required accept=".json,.txt,.tsv,.csv,.tsv.txt" />
        <p className="hint">
          A graphify graph.json, or a triple file (one <code>subject|relation|object</code> or tab-separated triple per
          line). Up to 512 MiB. Bundles are folders: import them from a path.
        </p>
      </div>
      <div className="form__row">
        <div className="field">
          <label htmlFor="upload-name">Name</label>
          <input id="upload-name" name="name" placeholder="from the file name" autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="upload-format">Format</label>
          <select id="upload-format" name="format" defaultValue="">
            <option value="">From the file name (.json = graphify)</option>
            <option value="graphify">graphify JSON</option>
            <option value="triples">Triple file</option>
          </select>
        </div>
      </div>
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? (
            <>
              <Spinner size={14} /> Uploading…
            </>
          ) : (
            "Upload and import"
          )}
        </button>
      </div>
      <ImportFeedback error={tooLarge ?? mutation.error} report={mutation.data} />
    </form>
  );
}
