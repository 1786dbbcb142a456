/**
 * First-run set-up: the first visitor creates the admin. There is no default password.
 *
 * Race-safe on any database: besides checking that no user exists, the transaction inserts a
 * fixed Setting key, whose primary key lets exactly one of two simultaneous set-ups commit.
 */
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { Prisma } from "../db/generated/prisma/client";
import { toUserView, userSelect } from "./account-fields";
import type { UserView } from "./account-fields";
import { assertAcceptablePassword, hashPassword } from "./passwords";

const SETUP_KEY = "auth.setup";

export interface CreateFirstAdminOptions {
  username: string;
  displayName?: string;
  password: string;
  ip?: string | null;
}

const ALREADY_DONE = "set-up is already done: an account exists; sign in instead";

/**
 * Refuse at once when set-up is done. Hashing costs ~100 ms of CPU, so it must come after this
 * cheap read: refused set-ups must not be a way to load the server. The transaction below
 * still re-checks (two first set-ups may pass this together).
 */
async function assertSetupOpen(): Promise<void> {
  const db = getDb();
  const [users, marker] = await Promise.all([db.user.count(), db.setting.findUnique({ where: { key: SETUP_KEY }, select: { key: true } })]);
  if (users > 0 || marker) throw new AppError("CONFLICT", ALREADY_DONE);
}

export async function createFirstAdmin(options: CreateFirstAdminOptions): Promise<UserView> {
  assertAcceptablePassword(options.password);
  await assertSetupOpen();
  const passwordHash = await hashPassword(options.password);
  const db = getDb();
  try {
    return await db.$transaction(async (tx) => {
      if ((await tx.user.count()) > 0) throw new AppError("CONFLICT", ALREADY_DONE);
      await tx.setting.create({ data: { key: SETUP_KEY, value: new Date().toISOString() } });
      const user = await tx.user.create({
        data: { username: options.username, displayName: options.displayName?.trim() || options.username, passwordHash, role: "admin" },
        select: userSelect,
      });
      const actor = { kind: "user" as const, userId: user.id, username: user.username, displayName: user.displayName, role: "admin" as const, sessionId: "" };
      await recordAudit(actor, { action: "auth.setup", summary: `created the first admin account ${user.username}`, targetType: "user", targetId: user.id, ip: options.ip }, tx);
      return toUserView(user);
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") throw new AppError("CONFLICT", ALREADY_DONE);
    throw error;
  }
}
