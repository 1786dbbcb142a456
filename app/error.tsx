"use client";

import Link from "next/link";

export default function AppErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="card empty-hero" role="alert">
      <h1>Something went wrong</h1>
      <p className="muted">
        The server could not render this page. The details are in the server log
        {error.digest ? (
          <>
            {" "}
            (reference <code>{error.digest}</code>)
          </>
        ) : null}
        .
      </p>
      <div className="row">
        <button type="button" className="button button--primary" onClick={reset}>
          Try again
        </button>
        <Link href="/" className="button">
          Back to graphs
        </Link>
      </div>
    </div>
  );
}
