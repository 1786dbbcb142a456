import type { Actor } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { assertAcceptablePassword, hashPassword, verifyPassword } from "./passwords";

export interface ChangePasswordOptions {
  actor: Extract<Actor, { kind: "user" }>;
  currentPassword: string;
  newPassword: string;
  ip?: string | null;
}

/** A person changes their own password; their other sessions end, this one stays. */
export async function changePassword(options: ChangePasswordOptions): Promise<void> {
  const db = getDb();
  const user = await db.user.findUnique({ where: { id: options.actor.userId }, select: { passwordHash: true } });
  if (!user || !(await verifyPassword(options.currentPassword, user.passwordHash))) throw new AppError("INVALID_INPUT", "the current password is wrong");
  assertAcceptablePassword(options.newPassword);
  const passwordHash = await hashPassword(options.newPassword);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: options.actor.userId }, data: { passwordHash } });
    await tx.session.deleteMany({ where: { userId: options.actor.userId, id: { not: options.actor.sessionId } } });
    await recordAudit(options.actor, { action: "user.update", summary: "changed their password", targetType: "user", targetId: options.actor.userId, ip: options.ip }, tx);
  });
}
