/** Response bodies of the account, session and token endpoints, for the OpenAPI document only. */
import { z } from "zod";
import { ROLES, TOKEN_SCOPES } from "../../auth/permissions";

const timestamp = z.string().describe("ISO 8601 date-time");
const permission = z.enum(["read", "propose", "import", "decide", "revert", "admin"]);

export const UserView = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  createdAt: timestamp,
  disabledAt: timestamp.nullable(),
});

const SessionUser = z.object({ id: z.string(), username: z.string(), displayName: z.string(), role: z.enum(ROLES) });

export const SignedIn = z.object({
  user: SessionUser,
  csrfToken: z.string().describe("echo it in X-CSRF-Token on POST/PUT/PATCH/DELETE (also set as the readable refinery_csrf cookie)"),
});

export const SessionInfo = z.object({
  setupNeeded: z.boolean().describe("no account exists yet: POST /api/auth/setup creates the first admin"),
  user: SessionUser.nullable(),
  tokenScope: z.enum(TOKEN_SCOPES).nullable(),
  permissions: z.array(permission),
  csrfToken: z.string().nullable(),
  expiresAt: timestamp.nullable(),
});

export const ApiTokenView = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("the first characters of the secret, to recognise it"),
  scope: z.enum(TOKEN_SCOPES),
  owner: z.object({ id: z.string(), username: z.string() }),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
});

export const CreatedApiToken = z.object({
  token: ApiTokenView,
  secret: z.string().describe("the token itself (rfy_…), shown this once: send it as Authorization: Bearer <secret>"),
});

export const Done = z.object({}).catchall(z.boolean()).describe("e.g. {signedOut: true} or {changed: true}");
