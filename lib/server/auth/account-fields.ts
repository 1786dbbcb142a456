/** What an account may be called and hold: zod schemas shared by the routes and the use-cases. */
import { z } from "zod";
import { ROLES } from "../../auth/permissions";
import type { Role } from "../../auth/permissions";
import { MAX_PASSWORD_LENGTH } from "./passwords";

/** Lower-cased; letters, digits, dot, dash, underscore; starts with a letter or digit. */
export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{1,39}$/, "a username has 2–40 characters: letters, digits, '.', '-' or '_', starting with a letter or digit");

export const displayNameSchema = z.string().trim().min(1, "the display name is empty").max(100);
/** Length and obviousness are checked by assertAcceptablePassword, with a clearer message. */
export const passwordSchema = z.string().min(1, "give a password").max(MAX_PASSWORD_LENGTH);
export const roleSchema = z.enum(ROLES);

/** What the API shows of an account: never the password hash. */
export interface UserView {
  id: string;
  username: string;
  displayName: string;
  role: Role;
  createdAt: string;
  disabledAt: string | null;
}

export const userSelect = { id: true, username: true, displayName: true, role: true, createdAt: true, disabledAt: true } as const;

export function toUserView(row: { id: string; username: string; displayName: string; role: string; createdAt: Date; disabledAt: Date | null }): UserView {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    role: roleSchema.parse(row.role),
    createdAt: row.createdAt.toISOString(),
    disabledAt: row.disabledAt?.toISOString() ?? null,
  };
}
