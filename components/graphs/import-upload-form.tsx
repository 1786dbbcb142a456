"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ChangeEvent, FormEvent } from "react";
import { useUploadGraph } from "../api/import-graph";
import type { UploadGraphInput } from "../api/import-graph";
import { Spinner } from "../ui/states";
import { ImportFeedback } from "./import-feedback";
import { ImportProgressLines } from "./import-progress";

/**
 * Same limits as the server (lib/server/graphs/upload/receive-upload.ts), checked here too so a
 * huge upload fails before it is sent: graphify JSON and projects up to 512 MiB; a triple file
 * has no limit (the server streams it to disk and imports it as it reads).
 */
const MAX_UPLOAD_BYTES = 512 * 1024 * 1024;
const MAX_FOLDER_FILES = 20_000;
/** Folders no graph points into: left out of a folder upload (they can be huge). */
const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "__pycache__", ".venv", "venv", ".next", ".mypy_cache", ".pytest_cache"]);

type Choice = { kind: "none" } | { kind: "file"; file: File } | { kind: "folder"; files: { file: File; path: string }[]; skipped: number };

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A graph file alone carries no source text: say what that costs before it is sent. */
function isGraphFileAlone(choice: Choice): boolean {
  return choice.kind === "file" && /\.json$/i.test(choice.file.name);
}

/** Would the server limit this upload's size (graphify JSON, a .zip, a folder), as receive-upload.ts decides? */
function isLimited(choice: Choice, format: FormDataEntryValue | null): boolean {
  if (choice.kind !== "file") return true;
  if (/\.zip$/i.test(choice.file.name)) return true;
  if (format === "triples") return false;
  return format === "graphify" || /\.json$/i.test(choice.file.name);
}

export function ImportUploadForm() {
  const router = useRouter();
  const mutation = useUploadGraph();
  const [choice, setChoice] = useState<Choice>({ kind: "none" });
  const [problem, setProblem] = useState<Error | null>(null);

  function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setProblem(null);
    setChoice(file ? { kind: "file", file } : { kind: "none" });
  }

  function onFolder(event: ChangeEvent<HTMLInputElement>) {
    const all = [...(event.currentTarget.files ?? [])];
    const files = all
      .map((file) => ({ file, path: file.webkitRelativePath || file.name }))
      .filter((f) => !f.path.split("/").some((part) => SKIPPED_FOLDERS.has(part)));
    setProblem(null);
    setChoice(files.length > 0 ? { kind: "folder", files, skipped: all.length - files.length } : { kind: "none" });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (choice.kind === "none") {
      setProblem(new Error("Choose a file, a .zip or a folder to upload."));
      return;
    }
    const form = new FormData(event.currentTarget);
    const format = form.get("format");
    const bytes = choice.kind === "file" ? choice.file.size : choice.files.reduce((n, f) => n + f.file.size, 0);
    if (bytes > MAX_UPLOAD_BYTES && isLimited(choice, format)) {
      setProblem(new Error(`${mib(bytes)} is over the 512 MiB upload limit for graphify JSON and projects: triple files have no limit, or import it from a path on the server`));
      return;
    }
    if (choice.kind === "folder" && choice.files.length > MAX_FOLDER_FILES) {
      setProblem(new Error(`the folder has ${choice.files.length.toLocaleString("en-US")} files, over the limit of ${MAX_FOLDER_FILES.toLocaleString("en-US")}: upload the graphify project folder itself, or a .zip of it`));
      return;
    }
    setProblem(null);
    const name = form.get("name");
    const input: UploadGraphInput = {
      ...(choice.kind === "file" ? { file: choice.file } : { folder: choice.files }),
      name: typeof name === "string" && name.trim() !== "" ? name.trim() : undefined,
      format: format === "graphify" || format === "triples" ? format : undefined,
    };
    mutation.mutate(input, {
      onSuccess: (report) => router.push(`/graphs/${encodeURIComponent(report.graph.name)}`),
    });
  }

  const pending = mutation.isPending;
  return (
    <form className="form" onSubmit={onSubmit} aria-busy={pending} data-testid="upload-form">
      <div className="field field--wide">
        <label htmlFor="upload-file">File</label>
        <input id="upload-file" name="file" type="file" accept=".json,.txt,.tsv,.csv,.zip" onChange={onFile} />
        <p className="hint">
          A graphify project as a <code>.zip</code> (graph.json with the source files it was built from), a graph.json
          alone, or a triple file (one <code>subject|relation|object</code> or tab-separated triple per line, <code>.gz</code> ok). Triple
          files of any size are streamed; graph.json and projects up to 512 MiB.
        </p>
      </div>
      <div className="field field--wide">
        <label htmlFor="upload-folder">Or a project folder</label>
        <input id="upload-folder" name="folder" type="file" multiple onChange={onFolder} {...{ webkitdirectory: "", directory: "" }} />
        <p className="hint">
          The folder holding graph.json (or graphify-out/) and its sources; {[...SKIPPED_FOLDERS].slice(0, 3).join(", ")} and the like are left out.
        </p>
      </div>
      {choice.kind === "folder" ? (
        <p className="hint" data-testid="upload-choice">
          {choice.files.length} files from <strong>{choice.files[0]?.path.split("/")[0]}</strong>
          {choice.skipped > 0 ? ` (${choice.skipped} in ${[...SKIPPED_FOLDERS].slice(0, 2).join(" / ")} folders left out)` : ""}
        </p>
      ) : null}
      {isGraphFileAlone(choice) ? (
        <div className="alert alert--warning" role="note" data-testid="upload-no-sources">
          <strong>graph.json alone has no source text.</strong>
          <p className="alert__message">
            The review then cannot quote or check the code and text behind a proposal: text and code evidence are
            unavailable, so labels rest on the graph alone and fewer changes reach HIGH. Upload the project folder or a
            .zip of it to keep the sources.
          </p>
        </div>
      ) : null}
      <div className="form__row">
        <div className="field">
          <label htmlFor="upload-name">Name</label>
          <input id="upload-name" name="name" placeholder="from the file or folder name" autoComplete="off" />
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
      <ImportProgressLines active={pending} name={typeof mutation.variables?.name === "string" ? mutation.variables.name : undefined} />
      <ImportFeedback error={problem ?? mutation.error} report={mutation.data} />
    </form>
  );
}
