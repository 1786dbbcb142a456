/** The request contracts and response schemas of the account routes: set-up, sign-in, password, accounts and API tokens. */
import { z } from "zod";
import { ROLES, TOKEN_SCOPES } from "../../auth/permissions";
import { tokenParams, userParams } from "../../api/contract";
import type { RequestContract } from "../../api/contract";
import { displayNameSchema, passwordSchema, roleSchema, usernameSchema } from "./account-fields";
import { tokenScopeSchema } from "./api-token-fields";

const username = usernameSchema.describe("2–40 characters: letters, digits, '.', '-' or '_'; stored lower-cased");
const password = passwordSchema.describe("at least 10 characters, not one of the obvious ones");
const examplePassword = "correct horse battery staple";

export const authContract = {
  setUpFirstAdmin: {
    body: z.object({ username, displayName: displayNameSchema.optional(), password }).meta({ examples: [{ username: "ada", displayName: "Ada", password: examplePassword }] }),
  },
  signIn: { body: z.object({ username: z.string().max(200), password: z.string().max(1000) }).meta({ examples: [{ username: "ada", password: examplePassword }] }) },
  changePassword: {
    body: z.object({ currentPassword: z.string().max(1000), newPassword: password }).meta({ examples: [{ currentPassword: examplePassword, newPassword: "a longer passphrase of mine" }] }),
  },
  createUser: {
    body: z
      .object({ username, displayName: displayNameSchema.optional(), password, role: roleSchema })
      .meta({ examples: [{ username: "rita", displayName: "Rita", password: examplePassword, role: "reviewer" }] }),
  },
  updateUser: {
    params: userParams,
    body: z
      .object({ role: roleSchema, displayName: displayNameSchema, disabled: z.boolean(), password })
      .partial()
      .strict()
      .refine((b) => Object.keys(b).length > 0, "give at least one of role, displayName, disabled, password")
      // JSON Schema cannot see the refine: say it there too.
      .meta({ minProperties: 1, examples: [{ role: "reviewer", displayName: "Rita R.", disabled: false, password: examplePassword }] }),
  },
  createApiToken: {
    body: z
      .object({
        name: z.string().trim().min(1, "name the token (what will use it?)").max(100),
        scope: tokenScopeSchema.describe("read: read only; propose: also start runs, queue questions, submit proposals"),
        expiresInDays: z.number().int().min(1).max(3650).optional(),
      })
      .meta({ examples: [{ name: "ci agent", scope: "propose", expiresInDays: 90 }] }),
  },
  revokeApiToken: { params: tokenParams },
} satisfies Record<string, RequestContract>;

const timestamp = z.string().describe("ISO 8601 date-time");
const permission = z.enum(["read", "propose", "import", "decide", "revert", "admin"]);

const UserView = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: z.enum(ROLES),
  createdAt: timestamp,
  disabledAt: timestamp.nullable(),
});

const SessionUser = z.object({ id: z.string(), username: z.string(), displayName: z.string(), role: z.enum(ROLES) });

const SignedIn = z.object({
  user: SessionUser,
  csrfToken: z.string().describe("echo it in X-CSRF-Token on POST/PUT/PATCH/DELETE (also set as the readable refinery_csrf cookie)"),
});

const SessionInfo = z.object({
  setupNeeded: z.boolean().describe("no account exists yet: POST /api/auth/setup creates the first admin"),
  user: SessionUser.nullable(),
  tokenScope: z.enum(TOKEN_SCOPES).nullable(),
  permissions: z.array(permission),
  csrfToken: z.string().nullable(),
  expiresAt: timestamp.nullable(),
});

const ApiTokenView = z.object({
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

const CreatedApiToken = z.object({
  token: ApiTokenView,
  secret: z.string().describe("the token itself (rfy_…), shown this once: send it as Authorization: Bearer <secret>"),
});

const Done = z.object({}).catchall(z.boolean()).describe("e.g. {signedOut: true} or {changed: true}");

/** Response schemas of the account routes, registered as components of the OpenAPI document. */
export const authResponses = { UserView, SignedIn, SessionInfo, ApiTokenView, CreatedApiToken, Done };
