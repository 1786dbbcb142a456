/**
 * Who may do what. Pure: the server enforces it on every route (app/api/_lib/auth.ts) and the
 * browser uses the same table only to hide controls a person cannot use — hiding is never the
 * check.
 *
 * Roles: admin (everything), reviewer (propose, discuss, approve/reject), viewer (read).
 * API tokens act for their owner but are capped by their scope (read | propose) and can never
 * decide: approve, reject, apply, revert and administration need a person in a browser session.
 */
export const ROLES = ["admin", "reviewer", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const TOKEN_SCOPES = ["read", "propose"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export type Permission =
  /** Read graphs, runs, proposals, versions, the audit log. */
  | "read"
  /** Start runs, queue questions, submit proposals (refinement files, imported traces), comment. */
  | "propose"
  /** Import a new graph, upload files. */
  | "import"
  /** Approve, reject or withdraw a decision on an action; edit an action under review. */
  | "decide"
  /** Revert a version. */
  | "revert"
  /** Approval policies, users, other people's tokens, LLM settings. */
  | "admin";

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: ["read", "propose", "import", "decide", "revert", "admin"],
  reviewer: ["read", "propose", "import", "decide"],
  viewer: ["read"],
};

const TOKEN_PERMISSIONS: Record<TokenScope, readonly Permission[]> = {
  read: ["read"],
  propose: ["read", "propose"],
};

/**
 * The one who makes a request. `user`: a person signed in with a browser session. `token`: a
 * script or agent with an API token (owner's id and name, capped by scope). `cli`: the local
 * command line, which has the database file and therefore every right the file gives; the CLI
 * refuses to approve or apply once accounts exist (see cli/). `system`: the server itself.
 */
export type Actor =
  | { kind: "user"; userId: string; username: string; displayName: string; role: Role; sessionId: string }
  | { kind: "token"; userId: string; username: string; displayName: string; role: Role; tokenId: string; scope: TokenScope }
  | { kind: "cli"; username: string; displayName: string }
  | { kind: "system"; username: "system"; displayName: string };

export function permissionsOf(actor: Actor): Permission[] {
  switch (actor.kind) {
    case "user":
      return [...ROLE_PERMISSIONS[actor.role]];
    case "token": {
      const role = new Set(ROLE_PERMISSIONS[actor.role]);
      return TOKEN_PERMISSIONS[actor.scope].filter((p) => role.has(p));
    }
    case "cli":
    case "system":
      return ["read", "propose", "import", "decide", "revert", "admin"];
  }
}

export function can(actor: Actor, permission: Permission): boolean {
  return permissionsOf(actor).includes(permission);
}

/** The account id behind an actor, for separation of duties (null: CLI or system). */
export function accountIdOf(actor: Actor): string | null {
  return actor.kind === "user" || actor.kind === "token" ? actor.userId : null;
}

/** How the actor is named in the audit log and timelines. */
export function actorLabel(actor: Actor): string {
  switch (actor.kind) {
    case "user":
      return actor.displayName === actor.username ? actor.username : `${actor.displayName} (${actor.username})`;
    case "token":
      return `${actor.username} via token`;
    case "cli":
      return actor.displayName;
    case "system":
      return "system";
  }
}

export const CLI_ACTOR: Actor = { kind: "cli", username: "cli", displayName: "command line" };
export const SYSTEM_ACTOR: Actor = { kind: "system", username: "system", displayName: "system" };
