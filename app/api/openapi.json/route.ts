import { buildOpenApiDocument } from "@/lib/server/http/openapi";
import { respond } from "../_lib/respond";

export const dynamic = "force-static";
export const runtime = "nodejs";

/** The OpenAPI 3.1 description of this API, generated from its zod schemas. */
export async function GET() {
  return respond(async () => buildOpenApiDocument());
}
