"use client";

import Link from "next/link";
import { useProvider } from "./api/get-provider";

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/**
 * Which model answers the loop's judgement, abduction and refinement prompts. The heuristic
 * provider is a rule-based stand-in; the banner says so plainly, so nobody reads its output
 * as a language model's.
 */
export function ProviderBanner() {
  const query = useProvider();
  if (query.isPending) return <span className="provider-banner provider-banner--quiet" aria-hidden="true" />;
  if (query.isError) {
    return (
      <Link href="/settings" className="provider-banner provider-banner--error" role="status" data-testid="provider-banner" title={query.error.message}>
        Provider: not configured correctly — {query.error.message}
      </Link>
    );
  }
  const p = query.data;
  if (!p.isLlm) {
    return (
      <Link href="/settings" className="provider-banner provider-banner--heuristic" role="status" data-testid="provider-banner" title="Configure a model in Settings">
        <strong>Provider: {p.provider}</strong> — rule-based, offline, not an LLM
      </Link>
    );
  }
  const parts = [p.model, p.baseUrl ? `@ ${hostOf(p.baseUrl)}` : null].filter((x): x is string => Boolean(x));
  return (
    <Link href="/settings" className="provider-banner" data-testid="provider-banner" title={p.baseUrl ?? undefined}>
      <strong>Provider: {p.provider}</strong>
      {parts.length > 0 ? ` · ${parts.join(" ")}` : null}
    </Link>
  );
}
