import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { ProviderBanner } from "@/components/provider-banner";
import { QueryProvider } from "@/components/query-provider";
import "./globals.css";
import "./styles/run-shell.css";
import "./styles/queue.css";
import "./styles/run.css";
import "./styles/run-proposal.css";

export const metadata: Metadata = {
  title: { default: "Refinery", template: "%s · Refinery" },
  description: "Question-driven refinement of knowledge graphs with human approval",
};

export default function RootLayout({ children }: { children: ReactNode }) {
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
              <nav aria-label="Main">
                <Link href="/" className="nav-link">
                  Graphs
                </Link>
                <Link href="/review" className="nav-link">
                  Review
                </Link>
                <Link href="/settings" className="nav-link">
                  Settings
                </Link>
              </nav>
              <ProviderBanner />
            </div>
          </header>
          <main className="page">{children}</main>
        </QueryProvider>
      </body>
    </html>
  );
}
