"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import type { Role } from "@/lib/auth/permissions";
import { Spinner } from "@/components/ui/states";
import { useCreateUser } from "./auth-api";

export const ROLE_HINTS: Record<Role, string> = {
  viewer: "reads everything, changes nothing",
  reviewer: "also imports, asks, runs, approves and rejects",
  admin: "also reverts, manages accounts, policies and settings",
};

export function CreateUserForm() {
  const create = useCreateUser();
  const [form, setForm] = useState({ username: "", displayName: "", password: "", role: "reviewer" as Role });
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ ...form, displayName: form.displayName.trim() || undefined }, { onSuccess: () => setForm((f) => ({ ...f, username: "", displayName: "", password: "" })) });
  };
  return (
    <form className="card form account-section" onSubmit={onSubmit} aria-label="Create an account">
      <h2 className="account-section__title">New account</h2>
      <div className="form__row">
        <div className="field">
          <label htmlFor="new-username">Username</label>
          <input id="new-username" autoComplete="off" required value={form.username} onChange={(e) => set("username")(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-display-name">Display name (optional)</label>
          <input id="new-display-name" autoComplete="off" value={form.displayName} onChange={(e) => set("displayName")(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-password">First password</label>
          <input id="new-password" type="password" autoComplete="new-password" required minLength={10} value={form.password} onChange={(e) => set("password")(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-role">Role</label>
          <select id="new-role" value={form.role} onChange={(e) => set("role")(e.target.value)}>
            <option value="viewer">viewer</option>
            <option value="reviewer">reviewer</option>
            <option value="admin">admin</option>
          </select>
          <span className="hint">{ROLE_HINTS[form.role]}</span>
        </div>
      </div>
      {create.isError && (
        <div className="alert alert--error" role="alert">
          <strong>Not created</strong>
          <span>{create.error.message}</span>
        </div>
      )}
      {create.isSuccess && (
        <div className="alert alert--success" role="status">
          Created {create.data.username} ({create.data.role}). Hand the first password over in person; they can change it on their Account page.
        </div>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={create.isPending}>
          {create.isPending && <Spinner size={14} />}
          Create account
        </button>
      </div>
    </form>
  );
}
