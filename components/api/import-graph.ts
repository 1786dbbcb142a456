import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ImportReport } from "./types";
import { fetchJson } from "./fetch-json";
import { graphKeys } from "./graph-keys";
import type { BodyOf } from "@/lib/api/contract";
import type { graphsContract, graphsResponses } from "@/lib/server/graphs/contract";
import type { z } from "zod";
import { OWN_PROGRESS } from "./own-progress";

export type ImportProgress = z.infer<typeof graphsResponses.ImportProgress>;

export type ImportFromPathInput = BodyOf<typeof graphsContract.importGraphFromPath>;

export function importGraphFromPath(input: ImportFromPathInput): Promise<ImportReport> {
  return fetchJson<ImportReport>("/api/graphs", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
}

export interface UploadGraphInput {
  /** graph.json, a triple file, or a graphify project as a .zip. */
  file?: File;
  /** A project folder's files with their paths relative to the chosen folder's parent ("httpx/raw/client.py"). */
  folder?: { file: File; path: string }[];
  name?: string;
  format?: "graphify" | "triples";
}

export function uploadGraph(input: UploadGraphInput): Promise<ImportReport> {
  const form = new FormData();
  // The small fields first: the server reads the body as it arrives, so it knows the graph's
  // name (its progress line) and the format (the size limit) before the file's bytes.
  if (input.name) form.set("name", input.name);
  if (input.format) form.set("format", input.format);
  if (input.folder) {
    for (const f of input.folder) {
      form.append("files", f.file);
      form.append("paths", f.path);
    }
  } else if (input.file) form.set("file", input.file);
  return fetchJson<ImportReport>("/api/graphs/upload", { method: "POST", body: form });
}

export function useImportGraphFromPath() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importGraphFromPath,
    meta: OWN_PROGRESS,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: graphKeys.all }),
  });
}

export function useUploadGraph() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadGraph,
    meta: OWN_PROGRESS,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: graphKeys.all }),
  });
}

/**
 * The imports running on the server with their latest progress line (`wrote 600,000 of
 * 1,146,480 rows (250,000 rows/s)`, `building index 3 of 6 …`, `committing`), polled every
 * second while `active` (an import request of this page is pending).
 */
export function useImportsInProgress(active: boolean) {
  return useQuery({
    queryKey: ["imports", "in-progress"],
    queryFn: () => fetchJson<ImportProgress[]>("/api/graphs/imports"),
    enabled: active,
    refetchInterval: active ? 1_000 : false,
    gcTime: 0,
  });
}
