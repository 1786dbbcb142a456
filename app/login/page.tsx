import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { isSetupNeeded } from "@/lib/server/auth/is-setup-needed";
import { findPageActor, safeNext } from "../_lib/page-actor";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const raw = (await searchParams).next;
  const next = safeNext(Array.isArray(raw) ? raw[0] : raw);
  if (await isSetupNeeded()) redirect("/setup");
  if (await findPageActor()) redirect(next);
  return (
    <div className="auth-page">
      <div className="page-heading">
        <h1>Sign in to Refinery</h1>
        <p className="muted">Graphs change only when a person approves: sign in with the account an administrator gave you.</p>
      </div>
      <LoginForm next={next} />
    </div>
  );
}
