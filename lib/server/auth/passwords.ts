/**
 * Password hashing with node:crypto scrypt. The stored string carries its own parameters
 * (`scrypt$N$r$p$salt$hash`, base64url) so they can be raised later without breaking old
 * hashes; comparison is constant-time.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { AppError } from "../../errors";

const N = 16_384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

/** The few passwords every guessing list starts with; refusing them costs nothing. */
const OBVIOUS = new Set(["password", "password1", "password12", "password123", "1234567890", "0123456789", "qwertyuiop", "letmein123", "administrator", "changeme123", "welcome123", "refinery123", "iloveyou12"]);

function derive(password: string, salt: Buffer, n: number, r: number, p: number, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, length, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Why a new password is refused, or null when it is acceptable. */
export function findPasswordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `the password must have at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must have at most ${MAX_PASSWORD_LENGTH} characters`;
  if (OBVIOUS.has(password.toLowerCase()) || /^(.)\1+$/.test(password)) return "that password is among the first ones anyone would guess; choose another";
  return null;
}

export function assertAcceptablePassword(password: string): void {
  const problem = findPasswordProblem(password);
  if (problem) throw new AppError("INVALID_INPUT", problem);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, KEY_LENGTH);
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** False for a wrong password and for a malformed stored hash (never throws on bad input). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, "base64url");
  const params = [Number(n), Number(r), Number(p)] as const;
  if (expected.length === 0 || !params.every((v) => Number.isInteger(v) && v > 0)) return false;
  const actual = await derive(password, Buffer.from(salt, "base64url"), params[0], params[1], params[2], expected.length);
  return timingSafeEqual(actual, expected);
}

/** A hash to verify against when the user does not exist, so a wrong name costs as long as a wrong password. */
let dummyHash: Promise<string> | null = null;
export function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}
