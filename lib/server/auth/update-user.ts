/**
 * An admin changes an account: role, display name, disabled, or a new password. Disabling or
 * resetting the password ends the account's sessions; the last active admin cannot be demoted
 * or disabled (nobody could administer the instance afterwards).
 */
import type { Actor, Role } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db";
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

export async function updateUser(options: UpdateUserOptions): Promise<UserView> {
  if (options.password !== undefined) assertAcceptablePassword(options.password);
  const passwordHash = options.password === undefined ? undefined : await hashPassword(options.password);
  return getDb().$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: options.userId }, select: userSelect });
    if (!before) throw new AppError("NOT_FOUND", `no account with id ${JSON.stringify(options.userId)}`);
    const losesAdmin = before.role === "admin" && !before.disabledAt && ((options.role !== undefined && options.role !== "admin") || options.disabled === true);
    if (losesAdmin) {
      const admins = await tx.user.count({ where: { role: "admin", disabledAt: null } });
      if (admins <= 1) throw new AppError("CONFLICT", `${before.username} is the only active admin: make another account admin first`);
    }
    const disabledAt = options.disabled === undefined ? undefined : options.disabled ? (before.disabledAt ?? new Date()) : null;
    const user = await tx.user.update({
      where: { id: options.userId },
      data: { role: options.role, displayName: options.displayName, disabledAt, passwordHash },
      select: userSelect,
    });
    if (options.disabled === true || passwordHash !== undefined) await tx.session.deleteMany({ where: { userId: user.id } });
    const changes: string[] = [];
    if (options.role !== undefined && options.role !== before.role) changes.push(`role ${before.role} → ${options.role}`);
    if (options.displayName !== undefined && options.displayName !== before.displayName) changes.push(`display name → ${JSON.stringify(options.displayName)}`);
    if (options.disabled !== undefined && options.disabled !== (before.disabledAt !== null)) changes.push(options.disabled ? "disabled" : "enabled");
    if (passwordHash !== undefined) changes.push("password reset");
    await recordAudit(
      options.actor,
      { action: "user.update", summary: `changed the account ${user.username}: ${changes.join(", ") || "no change"}`, targetType: "user", targetId: user.id, details: { changes }, ip: options.ip },
      tx,
    );
    return toUserView(user);
  });
}
