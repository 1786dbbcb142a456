"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import type { TokenScope } from "@/lib/auth/permissions";
import { ErrorState, LoadingState, Spinner } from "@/components/ui/states";
import { useCreateToken, useRevokeToken, useTokens } from "./auth-api";
import { formatWhen } from "./format-date";
import { NewTokenSecret } from "./new-token-secret";

/** Your API tokens: create (the secret is shown once), list by prefix, revoke. Admins see everyone's. */
export function TokenManager({ canPropose, isAdmin, username }: { canPropose: boolean; isAdmin: boolean; username: string }) {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>("read");
  const [expires, setExpires] = useState("90");
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  // Expiry is judged against the time the page opened; a reload refreshes it.
  const [now] = useState(() => Date.now());

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, scope, expiresInDays: expires === "" ? undefined : Number(expires) },
      {
        onSuccess: (result) => {
          setCreated({ name: result.token.name, secret: result.secret });
          setName("");
        },
      },
    );
  };

  return (
    <section className="card account-section" aria-label="API tokens">
      <h2 className="account-section__title">API tokens</h2>
      <p className="muted small">
        For scripts and agents. A <strong>read</strong> token reads graphs, runs and proposals; a <strong>propose</strong> token can also queue questions,
        start runs and submit proposals. No token can approve, reject, apply, revert or administer: those need you, signed in here.
      </p>
      {created ? (
        <NewTokenSecret name={created.name} secret={created.secret} onDone={() => setCreated(null)} />
      ) : (
        <form className="form token-form" onSubmit={onSubmit} aria-label="Create a token">
          <div className="field">
            <label htmlFor="token-name">Name</label>
            <input id="token-name" required maxLength={100} placeholder="e.g. nightly CI" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="token-scope">Scope</label>
            <select id="token-scope" value={scope} onChange={(e) => setScope(e.target.value as TokenScope)}>
              <option value="read">read</option>
              {canPropose && <option value="propose">propose</option>}
            </select>
          </div>
          <div className="field">
            <label htmlFor="token-expires">Expires</label>
            <select id="token-expires" value={expires} onChange={(e) => setExpires(e.target.value)}>
              <option value="30">in 30 days</option>
              <option value="90">in 90 days</option>
              <option value="365">in a year</option>
              <option value="">never (revoke by hand)</option>
            </select>
          </div>
          <button type="submit" className="button button--primary" disabled={create.isPending}>
            {create.isPending && <Spinner size={14} />}
            Create token
          </button>
        </form>
      )}
      {create.isError && (
        <div className="alert alert--error" role="alert">
          <strong>Not created</strong>
          <span>{create.error.message}</span>
        </div>
      )}
      {tokens.isPending ? (
        <LoadingState label="Loading tokens…" compact />
      ) : tokens.isError ? (
        <ErrorState title="Could not load the tokens" message={tokens.error.message} />
      ) : tokens.data.length === 0 ? (
        <p className="muted small">No tokens yet.</p>
      ) : (
        <div className="table-card">
          <table className="table token-table" aria-label="Tokens">
            <thead>
              <tr>
                <th>Name</th>
                <th>Token</th>
                <th>Scope</th>
                {isAdmin && <th>Owner</th>}
                <th>Created</th>
                <th>Last used</th>
                <th>Expires</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((t) => {
                const isExpired = t.expiresAt !== null && new Date(t.expiresAt).getTime() < now;
                return (
                  <tr key={t.id} className={t.revokedAt || isExpired ? "is-inactive" : undefined}>
                    <td className="nowrap">{t.name}</td>
                    <td className="mono">{t.prefix}…</td>
                    <td>
                      <span className="badge badge--quiet">{t.scope}</span>
                    </td>
                    {isAdmin && <td data-label="Owner">{t.owner.username === username ? "you" : t.owner.username}</td>}
                    <td className="nowrap" data-label="Created">{formatWhen(t.createdAt)}</td>
                    <td className="nowrap" data-label="Last used">{formatWhen(t.lastUsedAt)}</td>
                    <td className="nowrap" data-label="Expires">{t.expiresAt ? formatWhen(t.expiresAt) : "never"}</td>
                    <td className="num">
                      {t.revokedAt ? (
                        <span className="muted small">revoked</span>
                      ) : isExpired ? (
                        <span className="muted small">expired</span>
                      ) : (
                        <button type="button" className="link-button danger-link" onClick={() => revoke.mutate(t.id)} disabled={revoke.isPending}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
