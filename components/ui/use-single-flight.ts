import { useCallback, useRef } from "react";

/**
 * Runs at most one piece of async work at a time. A disabled button alone does not stop a
 * double click: React Query reports `isPending` a tick later, so the second click can land
 * first. Errors are left to the mutation's own state, which the caller renders.
 */
export function useSingleFlight(): (work: () => Promise<unknown>) => void {
  const busy = useRef(false);
  return useCallback((work: () => Promise<unknown>) => {
    if (busy.current) return;
    busy.current = true;
    work()
      .catch(() => undefined)
      .finally(() => {
        busy.current = false;
      });
  }, []);
}
