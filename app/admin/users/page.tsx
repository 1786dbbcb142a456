import type { Metadata } from "next";
import { UserAdmin } from "@/components/auth/user-admin";
import { findPagePermission } from "../../_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const { actor, isAllowed } = await findPagePermission("admin");
  if (!isAllowed) {
    return (
      <div className="state state--error" role="alert">
        <strong>Administrators only</strong>
        <span className="state__message">Your role ({actor.role}) cannot manage accounts. Ask an administrator.</span>
      </div>
    );
  }
  return (
    <div className="stack account-page">
      <div className="page-heading">
        <h1>Users</h1>
        <p className="muted">
          Create accounts and choose what each person may do. Disabling an account signs it out everywhere and stops its API tokens; resetting
          a password signs it out too. There must always be one active admin.
        </p>
      </div>
      <UserAdmin selfId={actor.userId} />
    </div>
  );
}
