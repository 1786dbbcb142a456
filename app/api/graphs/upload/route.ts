import type { ImportReport } from "@/components/api/types";
import { recordImport } from "@/lib/server/graphs/record-import";
import { trackImport } from "@/lib/server/graphs/import-graph";
import { importReceivedUpload } from "@/lib/server/graphs/upload/import-upload";
import { receiveUpload } from "@/lib/server/graphs/upload/receive-upload";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";
import { uploadFields } from "@/lib/server/graphs/contract";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A progress line at most this often while the body arrives (GET /api/graphs/imports shows it). */
const REPORT_EVERY_BYTES = 4 * 1024 * 1024;

/**
 * Multipart upload (form fields: name, format, and either `file` — graph.json, a triple file or
 * a project `.zip` — or `files` with `paths`, a folder's files and their relative paths). The
 * body is written to a temporary folder as it arrives (a triple file of any size; graphify JSON
 * and projects up to 512 MiB, 413 past it, the rest never read), then imported as a path import
 * is, with progress in GET /api/graphs/imports from the first byte on.
 */
export async function POST(request: Request) {
  return respond<ImportReport>(
    async () => {
      const actor = await requireActor(request, "import");
      const progress = trackImport(null, "receiving the upload");
      try {
        let reported = 0;
        const upload = await receiveUpload(request, {
          onBytes: (received) => {
            if (received - reported < REPORT_EVERY_BYTES) return;
            reported = received;
            progress.set(`receiving the upload: ${(received / 1024 / 1024).toFixed(0)} MiB so far`);
          },
          onField: (field, value) => {
            if (field === "name" && value.trim() !== "") progress.rename(value.trim());
          },
        });
        // Parsed from what was received: a folder's paths were checked with its files.
        let fields;
        try {
          fields = uploadFields.parse({ name: upload.fields.get("name")?.[0] ?? null, format: upload.fields.get("format")?.[0] ?? null });
        } catch (error) {
          upload.remove();
          throw error;
        }
        progress.set("received; starting the import");
        return await recordImport(actor, await importReceivedUpload({ upload, fields, actor, progress }));
      } finally {
        progress.end();
      }
    },
    { status: 201 },
  );
}
