"use client";

import { useRef, useState } from "react";
import type { FormEvent } from "react";
import { Spinner } from "@/components/ui/states";
import { signIn } from "./auth-api";

export function LoginForm({ next }: { next: string }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    try {
      await signIn({ username, password });
      // A full load: the header and every server component render for the new session.
      window.location.assign(next);
    } catch (e) {
      setError(e instanceof Error ? e.message : "could not sign in");
      setPending(false);
      // Ready to type the password again: most failures are a mistyped password.
      passwordRef.current?.select();
    }
  };

  return (
    <form className="card form auth-card" onSubmit={(e) => void onSubmit(e)} aria-label="Sign in">
      <div className="field">
        <label htmlFor="username">Username</label>
        <input id="username" name="username" autoComplete="username" autoFocus required value={username} onChange={(e) => setUsername(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input ref={passwordRef} id="password" name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {error && (
        <div className="alert alert--error" role="alert">
          <strong>Not signed in</strong>
          <span className="alert__detail">{error}</span>
        </div>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary auth-card__submit" disabled={isPending}>
          {isPending && <Spinner size={14} />}
          Sign in
        </button>
      </div>
      <p className="hint">Forgot your password? An administrator can set a new one on the Users page.</p>
    </form>
  );
}
