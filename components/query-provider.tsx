"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import type { ReactNode } from "react";
import { z } from "zod";

// No compiled parsers in the browser: zod's probe for them (`new Function`) is an eval that the
// pages' Content-Security-Policy blocks and reports (proxy.ts); interpreted parsing is as correct.
z.config({ jitless: true });

export function QueryProvider({ children }: { children: ReactNode }) {
  // One client per browser session; created in state so a re-render never drops the cache.
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            refetchOnWindowFocus: false,
            retry: (failures, error) => failures < 2 && !("status" in error && typeof error.status === "number" && error.status >= 400 && error.status < 500),
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
