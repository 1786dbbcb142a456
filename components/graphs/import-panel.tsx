"use client";

import { useState } from "react";
import { ImportPathForm } from "./import-path-form";
import { ImportUploadForm } from "./import-upload-form";

type Tab = "path" | "upload";

const TABS: { id: Tab; label: string }[] = [
  { id: "path", label: "From a path on the server" },
  { id: "upload", label: "Upload a file" },
];

/** `allowServerPaths`: reading a path on the server's disk is for admins (the API checks it too). */
export function ImportPanel({ allowServerPaths }: { allowServerPaths: boolean }) {
  const tabs = allowServerPaths ? TABS : TABS.filter((t) => t.id !== "path");
  const [tab, setTab] = useState<Tab>(allowServerPaths ? "path" : "upload");
  return (
    <section className="card import-panel" aria-labelledby="import-heading">
      <div className="import-panel__head">
        <h2 id="import-heading">Import a graph</h2>
        <div className="tabs" role="tablist" aria-label="Import source">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`import-tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`import-panel-${t.id}`}
              className="tab"
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
      </div>
      <div role="tabpanel" id={`import-panel-${tab}`} aria-labelledby={`import-tab-${tab}`}>
        {tab === "path" ? <ImportPathForm /> : <ImportUploadForm />}
      </div>
    </section>
  );
}
