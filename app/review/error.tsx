"use client";

import { ErrorState } from "@/components/ui/states";

export default function ReviewError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="card">
      <ErrorState
        title="Could not load the review queue"
        message={`The server could not read the proposals. Nothing was changed. ${error.digest ? `(reference ${error.digest})` : ""}`}
        action={
          <button type="button" className="button button--primary" onClick={reset}>
            Try again
          </button>
        }
      />
    </div>
  );
}
