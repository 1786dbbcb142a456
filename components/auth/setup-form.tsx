"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { Spinner } from "@/components/ui/states";
import { setUp } from "./auth-api";

const MIN_LENGTH = 10;

export function SetupForm() {
  const [form, setForm] = useState({ username: "", displayName: "", password: "", confirm: "" });
  const [error, setError] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (form.password !== form.confirm) {
      setError("the two passwords differ");
      return;
    }
    setPending(true);
    setError(null);
    try {
      await setUp({ username: form.username, displayName: form.displayName.trim() || undefined, password: form.password });
      window.location.assign("/");
    } catch (e) {
      setError(e instanceof Error ? e.message : "could not create the account");
      setPending(false);
    }
  };

  return (
    <form className="card form auth-card" onSubmit={(e) => void onSubmit(e)} aria-label="Create the admin account">
      <div className="field">
        <label htmlFor="username">Username</label>
        <input id="username" autoComplete="username" autoFocus required value={form.username} onChange={(e) => set("username")(e.target.value)} />
        <span className="hint">Letters, digits, &quot;.&quot;, &quot;-&quot; or &quot;_&quot;; you sign in with it.</span>
      </div>
      <div className="field">
        <label htmlFor="displayName">Display name (optional)</label>
        <input id="displayName" autoComplete="name" value={form.displayName} onChange={(e) => set("displayName")(e.target.value)} />
        <span className="hint">How the audit log and reviews name you.</span>
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="new-password" required minLength={MIN_LENGTH} value={form.password} onChange={(e) => set("password")(e.target.value)} />
        <span className="hint">At least {MIN_LENGTH} characters. A few words make a good one.</span>
      </div>
      <div className="field">
        <label htmlFor="confirm">Password again</label>
        <input id="confirm" type="password" autoComplete="new-password" required value={form.confirm} onChange={(e) => set("confirm")(e.target.value)} />
      </div>
      {error && (
        <div className="alert alert--error" role="alert">
          <strong>Not created</strong>
          <span>{error}</span>
        </div>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary auth-card__submit" disabled={isPending}>
          {isPending && <Spinner size={14} />}
          Create the admin account
        </button>
      </div>
    </form>
  );
}
