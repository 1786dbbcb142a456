import type { Metadata } from "next";
import { can } from "@/lib/auth/permissions";
import { PasswordForm } from "@/components/auth/password-form";
import { TokenManager } from "@/components/auth/token-manager";
import { requirePageActor } from "../_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const metadata: Metadata = { title: "Account" };

const ROLE_TEXT = {
  viewer: "You can read everything: graphs, runs, proposals, versions and the audit log.",
  reviewer: "You can import graphs, queue questions, start runs, and approve or reject proposed changes.",
  admin: "You can do everything, including reverting versions, managing accounts, approval policies and settings.",
} as const;

export default async function AccountPage() {
  const actor = await requirePageActor();
  return (
    <div className="stack account-page">
      <div className="page-heading">
        <h1>Your account</h1>
        <p className="muted">
          Signed in as <strong>{actor.displayName}</strong> (<span className="mono">{actor.username}</span>), role{" "}
          <span className="badge badge--quiet">{actor.role}</span>. {ROLE_TEXT[actor.role]}
        </p>
      </div>
      <PasswordForm />
      <TokenManager canPropose={can(actor, "propose")} isAdmin={actor.role === "admin"} username={actor.username} />
    </div>
  );
}
