/**
 * An admin changes an account: role, display name, disabled, or a new password. Disabling or
 * resetting the password ends the account's sessions; disabling also revokes its API tokens for
 * good, so re-enabling the account later does not bring old tokens back to life. The last
 * active admin cannot be demoted or disabled (nobody could administer the instance afterwards),
 * even when two admins demote each other at the same moment (see `lockActiveAdmins`).
 */
import type { Actor, Role } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { dialectOf, resolveDatabaseUrl } from "../db/database-url";
import { getDb } from "../db/db";
import type { Prisma } from "../db/generated/prisma/client";
import { toUserView, userSelect } from "./account-fields";
import type { UserView } from "./account-fields";
import { assertAcceptablePassword, hashPassword } from "./passwords";

export interface UpdateUserOptions {
  actor: Actor;
  userId: string;
  role?: Role;
  displayName?: string;
  disabled?: boolean;
  password?: string;
  ip?: string | null;
}

/**
 * The ids of the active admins, locked until the transaction ends. PostgreSQL (READ COMMITTED):
 * FOR UPDATE makes a second demotion wait for the first to commit and then re-check the rows,
 * so it no longer counts the admin the first one demoted. SQLite: write transactions are
 * serialised already (BEGIN IMMEDIATE under the writer lock), a plain read is enough.
 */
async function lockActiveAdmins(tx: Prisma.TransactionClient): Promise<string[]> {
  if (dialectOf(resolveDatabaseUrl()) === "postgres") {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "User" WHERE "role" = 'admin' AND "disabledAt" IS NULL ORDER BY "id" FOR UPDATE`;
    return rows.map((r) => r.id);
  }
  return (await tx.user.findMany({ where: { role: "admin", disabledAt: null }, select: { id: true } })).map((r) => r.id);
}

export async function updateUser(options: UpdateUserOptions): Promise<UserView> {
  if (options.password !== undefined) assertAcceptablePassword(options.password);
  const passwordHash = options.password === undefined ? undefined : await hashPassword(options.password);
  return getDb().$transaction(async (tx) => {
    const losesAdminIfAdmin = (options.role !== undefined && options.role !== "admin") || options.disabled === true;
    // Lock before reading the account: its role and state are then the committed ones.
    const admins = losesAdminIfAdmin ? await lockActiveAdmins(tx) : null;
    const before = await tx.user.findUnique({ where: { id: options.userId }, select: userSelect });
    if (!before) throw new AppError("NOT_FOUND", `no account with id ${JSON.stringify(options.userId)}`);
    if (admins && admins.includes(before.id) && admins.length <= 1) {
      throw new AppError("CONFLICT", `${before.username} is the only active admin: make another account admin first`);
    }
    const now = new Date();
    const disabledAt = options.disabled === undefined ? undefined : options.disabled ? (before.disabledAt ?? now) : null;
    const user = await tx.user.update({
      where: { id: options.userId },
      data: { role: options.role, displayName: options.displayName, disabledAt, passwordHash },
      select: userSelect,
    });
    if (options.disabled === true || passwordHash !== undefined) await tx.session.deleteMany({ where: { userId: user.id } });
    let revokedTokens = 0;
    if (options.disabled === true) {
      revokedTokens = (await tx.apiToken.updateMany({ where: { userId: user.id, revokedAt: null }, data: { revokedAt: now } })).count;
    } else if (options.disabled === false && before.disabledAt) {
      // Accounts disabled before tokens were revoked on disabling: tokens from before stay dead.
      revokedTokens = (await tx.apiToken.updateMany({ where: { userId: user.id, revokedAt: null, createdAt: { lte: before.disabledAt } }, data: { revokedAt: now } })).count;
    }
    const changes: string[] = [];
    if (options.role !== undefined && options.role !== before.role) changes.push(`role ${before.role} → ${options.role}`);
    if (options.displayName !== undefined && options.displayName !== before.displayName) changes.push(`display name → ${JSON.stringify(options.displayName)}`);
    if (options.disabled !== undefined && options.disabled !== (before.disabledAt !== null)) changes.push(options.disabled ? "disabled" : "enabled");
    if (passwordHash !== undefined) changes.push("password reset");
    if (revokedTokens > 0) changes.push(`${revokedTokens} API token(s) revoked`);
    await recordAudit(
      options.actor,
      { action: "user.update", summary: `changed the account ${user.username}: ${changes.join(", ") || "no change"}`, targetType: "user", targetId: user.id, details: { changes }, ip: options.ip },
      tx,
    );
    return toUserView(user);
  });
}
