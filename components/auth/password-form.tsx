"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { Spinner } from "@/components/ui/states";
import { changePassword } from "./auth-api";

export function PasswordForm() {
  const [form, setForm] = useState({ currentPassword: "", newPassword: "", confirm: "" });
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({ mutationFn: changePassword, onSuccess: () => setForm({ currentPassword: "", newPassword: "", confirm: "" }) });
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(form.newPassword !== form.confirm);
    if (form.newPassword === form.confirm) change.mutate({ currentPassword: form.currentPassword, newPassword: form.newPassword });
  };
  return (
    <form className="card form account-section" onSubmit={onSubmit} aria-label="Change password">
      <h2 className="account-section__title">Password</h2>
      <div className="form__row">
        <div className="field">
          <label htmlFor="current-password">Current password</label>
          <input id="current-password" type="password" autoComplete="current-password" required value={form.currentPassword} onChange={(e) => set("currentPassword")(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="new-password">New password</label>
          <input id="new-password" type="password" autoComplete="new-password" required minLength={10} value={form.newPassword} onChange={(e) => set("newPassword")(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="confirm-password">New password again</label>
          <input id="confirm-password" type="password" autoComplete="new-password" required value={form.confirm} onChange={(e) => set("confirm")(e.target.value)} />
        </div>
      </div>
      {(mismatch || change.isError) && (
        <div className="alert alert--error" role="alert">
          <strong>Not changed</strong>
          <span>{mismatch ? "the two new passwords differ" : change.error?.message}</span>
        </div>
      )}
      {change.isSuccess && (
        <div className="alert alert--success" role="status">
          Password changed. Your other browsers were signed out.
        </div>
      )}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={change.isPending}>
          {change.isPending && <Spinner size={14} />}
          Change password
        </button>
        <span className="hint">At least 10 characters.</span>
      </div>
    </form>
  );
}
