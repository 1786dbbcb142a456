/** Random secrets, their stored digests and constant-time comparison. */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Only this digest is stored: a leaked database does not give working sessions or tokens. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function isSameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
