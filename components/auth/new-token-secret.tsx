"use client";

import { useState } from "react";

/** The secret of a token just created: shown once, with a copy button and how to use it. */
export function NewTokenSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div className="token-secret" role="status" aria-label="New token">
      <strong>Token “{name}” created. Copy it now: it is not shown again.</strong>
      <div className="token-secret__row">
        <code className="token-secret__value" data-testid="token-secret">
          {secret}
        </code>
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <span className="hint">
        Send it as <code>Authorization: Bearer {secret.slice(0, 8)}…</code> from scripts and agents.
      </span>
      <div>
        <button type="button" className="link-button" onClick={onDone}>
          I have stored it
        </button>
      </div>
    </div>
  );
}
