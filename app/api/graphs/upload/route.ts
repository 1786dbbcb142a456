import { z } from "zod";
import type { ImportReport } from "@/components/api/types";
import { AppError } from "@/lib/errors";
import { importGraphFromText } from "@/lib/server/import-graph";
import { checkSize, decodeText, MAX_INPUT_BYTES } from "@/lib/server/read-input";
import { recordImport } from "@/lib/server/record-import";
import { requireActor } from "../../_lib/auth";
import { respond } from "../../_lib/respond";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const uploadFields = z.object({
  name: z.preprocess((v) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v), z.string().trim().optional()),
  format: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(["graphify", "triples"]).optional()),
});

/** Multipart upload of one graph.json or triple file (form fields: file, name, format). */
export async function POST(request: Request) {
  return respond<ImportReport>(
    async () => {
      const actor = await requireActor(request, "import");
      // Refuse before buffering anything when the client says up front that it is too big.
      const declared = Number(request.headers.get("content-length") ?? "0");
      if (declared > MAX_INPUT_BYTES + 64 * 1024) checkSize(declared, "the upload");
      let form: FormData;
      try {
        form = await request.formData();
      } catch {
        throw new AppError("INVALID_INPUT", "send the file as multipart/form-data with a 'file' field");
      }
      const file = form.get("file");
      if (!(file instanceof File)) throw new AppError("INVALID_INPUT", "choose a file to upload (form field 'file')");
      checkSize(file.size, file.name);
      const fields = uploadFields.parse({ name: form.get("name"), format: form.get("format") });
      const text = decodeText(new Uint8Array(await file.arrayBuffer()), file.name);
      const name = fields.name ?? file.name.replace(/\.[^.]+$/, "");
      return recordImport(actor, await importGraphFromText({ name, fileName: file.name, text, format: fields.format }));
    },
    { status: 201 },
  );
}
