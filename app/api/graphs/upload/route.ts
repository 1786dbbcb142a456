import type { ImportReport } from "@/components/api/types";
import { AppError } from "@/lib/errors";
import { recordImport } from "@/lib/server/graphs/record-import";
import { importUpload, type UploadInput } from "@/lib/server/graphs/upload/import-upload";
import { readUploadForm } from "@/lib/server/graphs/upload/read-upload-form";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { uploadFields } from "@/lib/server/graphs/contract";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Multipart upload (form fields: name, format, and either `file` — graph.json, a triple file or
 * a project `.zip` — or `files` with `paths`, a folder's files and their relative paths).
 */
export async function POST(request: Request) {
  return respond<ImportReport>(
    async () => {
      const actor = await requireActor(request, "import");
      // Counted while it streams: a body without Content-Length stops at the limit (413).
      const form = await readUploadForm(request);
      const fields = uploadFields.parse({ name: form.get("name"), format: form.get("format") });
      const file = form.get("file");
      const files = form.getAll("files").filter((f): f is File => f instanceof File);
      let input: UploadInput;
      if (files.length > 0) {
        const paths = form.getAll("paths").map(String);
        if (paths.length !== files.length) throw new AppError("INVALID_INPUT", `a folder upload needs one 'paths' entry per file (${files.length} files, ${paths.length} paths)`);
        input = { kind: "folder", files: files.map((f, i) => ({ file: f, path: paths[i] ?? f.name })) };
      } else if (file instanceof File) {
        input = { kind: "file", file };
      } else {
        throw new AppError("INVALID_INPUT", "choose a file or a folder to upload (form field 'file', or 'files' with 'paths')");
      }
      return recordImport(actor, await importUpload({ input, fields, actor }));
    },
    { status: 201 },
  );
}
