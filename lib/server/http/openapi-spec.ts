/**
 * The shape of one operation of the OpenAPI document, apart from the document itself so the
 * operation lists (openapi-operations*.ts) and the builder (openapi.ts) form no import circle.
 * A response names a component schema by its name; openapi.ts refuses a name it does not define.
 */
import type { RequestContract } from "../../api/contract";

export type JsonSchema = Record<string, unknown>;

/** What one operation answers on success. */
export type SuccessBody = { schema: string; list?: boolean } | { contentType: string; description: string; schema: JsonSchema };

export interface OperationSpec {
  path: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** Path parameters, query and body: the same zod objects the route handler parses with (the domain's contract.ts). */
  request?: RequestContract;
  status?: number;
  response: SuccessBody;
  /** 401 and 403 are added to every operation that is not public. */
  errors: (400 | 401 | 403 | 404 | 409 | 413 | 428 | 429 | 500)[];
  /** Callable without a session or token (sign-in, set-up, "who am I", this document). */
  isPublic?: boolean;
}
