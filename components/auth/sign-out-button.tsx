"use client";

import { useState } from "react";
import { fetchJson } from "@/components/api/fetch-json";

export function SignOutButton() {
  const [isPending, setPending] = useState(false);
  const signOut = async () => {
    setPending(true);
    try {
      await fetchJson("/api/auth/logout", { method: "POST" });
    } catch {
      // Already signed out on the server (expired session): the sign-in page is right anyway.
    }
    window.location.assign("/login");
  };
  return (
    <button type="button" className="link-button user-menu__sign-out" onClick={() => void signOut()} disabled={isPending}>
      Sign out
    </button>
  );
}
