"use client";

import { ErrorState, LoadingState } from "@/components/ui/states";
import { useUsers } from "./auth-api";
import { CreateUserForm } from "./create-user-form";
import { UserRow } from "./user-row";

export function UserAdmin({ selfId }: { selfId: string }) {
  const users = useUsers();
  return (
    <div className="stack">
      <CreateUserForm />
      <section className="card account-section" aria-label="Accounts">
        <h2 className="account-section__title">Accounts</h2>
        {users.isPending ? (
          <LoadingState label="Loading accounts…" compact />
        ) : users.isError ? (
          <ErrorState title="Could not load the accounts" message={users.error.message} />
        ) : (
          <div className="table-card">
            <table className="table user-table" aria-label="Accounts">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Role</th>
                  <th>Status</th>
                  <th>Created</th>
                  <th>Actions</th>
                </tr>
              </thead>
              <tbody>
                {users.data.map((u) => (
                  <UserRow key={u.id} user={u} isSelf={u.id === selfId} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
