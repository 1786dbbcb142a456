/**
 * "This browser has signed in as this account before": a cookie set on every successful
 * sign-in, signed with a key kept in the database (Setting `auth.deviceKey`, made on first
 * use), so every instance accepts it and nobody can mint one without the password once. A
 * sign-in that shows it skips the per-name backoff (check-login-rate-limit.ts): a stranger's
 * wrong guesses slow the stranger down, not the owner on their own browser.
 */
import { createHmac, randomBytes } from "node:crypto";
import { getDb } from "../db/db";
import { isSameSecret } from "./secrets";

export const DEVICE_COOKIE = "refinery_device";
export const DEVICE_TTL_MS = 180 * 24 * 60 * 60 * 1000;
const KEY_SETTING = "auth.deviceKey";

const globalForDevice = globalThis as unknown as { refineryDeviceKey?: { db: unknown; key: Promise<Buffer> } };

async function loadKey(): Promise<Buffer> {
  const db = getDb();
  const found = await db.setting.findUnique({ where: { key: KEY_SETTING } });
  if (found) return Buffer.from(found.value, "base64url");
  try {
    await db.setting.create({ data: { key: KEY_SETTING, value: randomBytes(32).toString("base64url") } });
  } catch {
    // Another instance made it first: use theirs.
  }
  const row = await db.setting.findUniqueOrThrow({ where: { key: KEY_SETTING } });
  return Buffer.from(row.value, "base64url");
}

function deviceKey(): Promise<Buffer> {
  const db = getDb();
  const cached = globalForDevice.refineryDeviceKey;
  if (cached && cached.db === db) return cached.key;
  const key = loadKey();
  globalForDevice.refineryDeviceKey = { db, key };
  key.catch(() => {
    if (globalForDevice.refineryDeviceKey?.key === key) globalForDevice.refineryDeviceKey = undefined;
  });
  return key;
}

function sign(key: Buffer, userId: string, issuedAt: number): string {
  return createHmac("sha256", key).update(`device.v1.${userId}.${issuedAt}`).digest("base64url");
}

export async function createDeviceToken(userId: string, now = new Date()): Promise<string> {
  const issuedAt = now.getTime();
  return `${userId}.${issuedAt}.${sign(await deviceKey(), userId, issuedAt)}`;
}

/** Whether `token` is a device cookie this instance issued to `userId` and that has not expired. */
export async function isKnownDevice(token: string | null, userId: string, now = new Date()): Promise<boolean> {
  if (!token || token.length > 300) return false;
  const [id, issued, mac, ...rest] = token.split(".");
  if (rest.length > 0 || id !== userId || !issued || !mac || !/^\d+$/.test(issued)) return false;
  const issuedAt = Number(issued);
  if (issuedAt > now.getTime() + 60_000 || now.getTime() - issuedAt > DEVICE_TTL_MS) return false;
  return isSameSecret(mac, sign(await deviceKey(), userId, issuedAt));
}
