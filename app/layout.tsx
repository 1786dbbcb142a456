import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { ProviderBanner } from "@/components/provider-banner";
import { QueryProvider } from "@/components/query-provider";
import { SlowSaveNotice } from "@/components/ui/slow-save-notice";
import { SessionProvider } from "@/components/auth/session-context";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { dialectOf, resolveDatabaseUrl } from "@/lib/server/db/database-url";
import { findPageActor } from "./_lib/page-actor";
import "./globals.css";
import "./styles/run-shell.css";
import "./styles/queue.css";
import "./styles/run.css";
import "./styles/run-proposal.css";
import "./styles/ask.css";
import "./styles/auth.css";

export const metadata: Metadata = {
  title: { default: "Refinery", template: "%s · Refinery" },
  description: "Question-driven refinement of knowledge graphs with human approval",
  // Static files in public/ (made from public/icon.svg by scripts/make-icons.ts).
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "48x48" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: { url: "/icon-192.png", sizes: "192x192" },
  },
  manifest: "/manifest.webmanifest",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The header shows who is signed in; pages and API routes do their own checks.
  const actor = await findPageActor();
  // Whether saves queue behind one writer (SQLite) — for the slow-save notice's wording only.
  let oneWriter = true;
  try {
    oneWriter = dialectOf(resolveDatabaseUrl()) === "sqlite";
  } catch {
    // A DATABASE_URL the database layer refuses is reported there, not here.
  }
  return (
    <html lang="en">
      <body>
        <QueryProvider>
          <header className="site-header">
            <div className="site-header__inner">
              <Link href="/" className="brand">
                <span className="brand__mark" aria-hidden="true" />
                Refinery
              </Link>
              {actor && (
                <nav aria-label="Main">
                  <Link href="/" className="nav-link">
                    Graphs
                  </Link>
                  <Link href="/review" className="nav-link">
                    Review
                  </Link>
                  <Link href="/campaigns" className="nav-link">
                    Campaigns
                  </Link>
                  <Link href="/audit" className="nav-link">
                    Audit
                  </Link>
                  <Link href="/settings" className="nav-link">
                    Settings
                  </Link>
                  <Link href="/docs" className="nav-link">
                    Docs
                  </Link>
                </nav>
              )}
              {actor && <ProviderBanner />}
              {actor && (
                <div className="user-menu">
                  <span className="user-menu__who">
                    <Link href="/account" className="user-menu__name" title="Your account and API tokens">
                      {actor.displayName}
                    </Link>
                    <span className="badge badge--quiet">{actor.role}</span>
                  </span>
                  {actor.role === "admin" && (
                    <Link href="/admin/users" className="nav-link">
                      Users
                    </Link>
                  )}
                  <Link href="/account" className="nav-link user-menu__account">
                    Account
                  </Link>
                  <SignOutButton />
                </div>
              )}
            </div>
          </header>
          <main className="page">
            <SessionProvider actor={actor && { kind: "user", userId: actor.userId, username: actor.username, displayName: actor.displayName, role: actor.role }}>{children}</SessionProvider>
          </main>
          {actor && <SlowSaveNotice oneWriter={oneWriter} />}
        </QueryProvider>
      </body>
    </html>
  );
}
