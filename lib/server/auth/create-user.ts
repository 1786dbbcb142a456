import type { Actor, Role } from "../../auth/permissions";
import { AppError } from "../../errors";
import { recordAudit } from "../audit";
import { getDb } from "../db/db";
import { Prisma } from "../db/generated/prisma/client";
import { toUserView, userSelect } from "./account-fields";
import type { UserView } from "./account-fields";
import { assertAcceptablePassword, hashPassword } from "./passwords";

export interface CreateUserOptions {
  actor: Actor;
  username: string;
  displayName?: string;
  password: string;
  role: Role;
  ip?: string | null;
}

/** An admin creates an account with a role and a first password (to be handed over in person). */
export async function createUser(options: CreateUserOptions): Promise<UserView> {
  assertAcceptablePassword(options.password);
  const passwordHash = await hashPassword(options.password);
  try {
    return await getDb().$transaction(async (tx) => {
      const user = await tx.user.create({
        data: { username: options.username, displayName: options.displayName?.trim() || options.username, passwordHash, role: options.role },
        select: userSelect,
      });
      await recordAudit(options.actor, { action: "user.create", summary: `created the ${options.role} account ${user.username}`, targetType: "user", targetId: user.id, details: { role: options.role }, ip: options.ip }, tx);
      return toUserView(user);
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("CONFLICT", `the username ${JSON.stringify(options.username)} is taken`);
    }
    throw error;
  }
}
