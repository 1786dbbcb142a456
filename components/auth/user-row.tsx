"use client";

import { useState } from "react";
import type { FormEvent } from "react";
import type { Role } from "@/lib/auth/permissions";
import type { UserView } from "./auth-api";
import { useUpdateUser } from "./auth-api";
import { formatWhen } from "./format-date";

export function UserRow({ user, isSelf }: { user: UserView; isSelf: boolean }) {
  const update = useUpdateUser();
  const [isResetting, setResetting] = useState(false);
  const [password, setPassword] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const change = (body: { role?: Role; disabled?: boolean; password?: string }, message: string) =>
    update.mutate({ id: user.id, ...body }, { onSuccess: () => setDone(message) });
  const onReset = (event: FormEvent) => {
    event.preventDefault();
    change({ password }, "password reset; their sessions ended");
    setPassword("");
    setResetting(false);
  };
  const label = `${user.username}`;
  return (
    <tr className={user.disabledAt ? "is-inactive" : undefined} data-testid={`user-${user.username}`}>
      <td>
        <div className="table__name">
          {user.displayName}
          {isSelf && <span className="badge badge--quiet">you</span>}
        </div>
        <div className="table__sub mono">{user.username}</div>
      </td>
      <td>
        <select aria-label={`Role of ${label}`} value={user.role} disabled={update.isPending} onChange={(e) => change({ role: e.target.value as Role }, `role changed to ${e.target.value}`)}>
          <option value="viewer">viewer</option>
          <option value="reviewer">reviewer</option>
          <option value="admin">admin</option>
        </select>
      </td>
      <td className="nowrap">{user.disabledAt ? <span className="badge badge--danger">disabled</span> : <span className="badge badge--ok">active</span>}</td>
      <td className="nowrap">{formatWhen(user.createdAt)}</td>
      <td>
        <div className="user-actions">
          {isResetting ? (
            <form className="user-actions__reset" onSubmit={onReset}>
              <input aria-label={`New password for ${label}`} type="password" autoComplete="new-password" required minLength={10} placeholder="new password" value={password} onChange={(e) => setPassword(e.target.value)} />
              <button type="submit" className="button">
                Set password
              </button>
              <button type="button" className="link-button" onClick={() => setResetting(false)}>
                Cancel
              </button>
            </form>
          ) : (
            <button type="button" className="link-button" onClick={() => setResetting(true)}>
              Reset password
            </button>
          )}
          {!isSelf && (
            <button
              type="button"
              className={user.disabledAt ? "link-button" : "link-button danger-link"}
              disabled={update.isPending}
              onClick={() => change({ disabled: !user.disabledAt }, user.disabledAt ? "enabled" : "disabled; their sessions and tokens stopped working")}
            >
              {user.disabledAt ? "Enable" : "Disable"}
            </button>
          )}
        </div>
        {update.isError && <div className="user-actions__error small" role="alert">{update.error.message}</div>}
        {done && !update.isError && <div className="muted small">{done}</div>}
      </td>
    </tr>
  );
}
