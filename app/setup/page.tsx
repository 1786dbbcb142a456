import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { isSetupNeeded } from "@/lib/server/auth/is-setup-needed";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export const metadata: Metadata = { title: "Set up" };

export default async function SetupPage() {
  if (!(await isSetupNeeded())) redirect("/login");
  return (
    <div className="auth-page">
      <div className="page-heading">
        <h1>Welcome to Refinery</h1>
        <p className="muted">
          This instance has no accounts yet. Create the first one: it is the <strong>admin</strong>, who then creates accounts for the others
          (viewers, reviewers, admins) on the Users page.
        </p>
        <p className="muted">
          There is no default password: whoever opens this page first becomes the admin, so do it right after starting the server. Once an
          account exists this page is closed.
        </p>
      </div>
      <SetupForm />
    </div>
  );
}
