import { createHash } from "node:crypto";

/** The deeprefine query id: first 16 hex chars of SHA-256 of the stripped question text. */
export function queryIdOf(text: string): string {
  return createHash("sha256").update(text.trim()).digest("hex").slice(0, 16);
}
