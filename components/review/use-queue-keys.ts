"use client";

import { useEffect, useRef } from "react";

export type QueueKey = "next" | "previous" | "approve" | "reject" | "edit" | "open" | "help";

const KEYS: Record<string, QueueKey> = {
  j: "next",
  ArrowDown: "next",
  k: "previous",
  ArrowUp: "previous",
  a: "approve",
  r: "reject",
  e: "edit",
  Enter: "open",
  o: "open",
  "?": "help",
};

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Single-key shortcuts for the queue. Ignored while typing in a field, with a modifier held
 * (browser shortcuts stay intact), and while a dialog is open (its own keys win). Enter is
 * left to links and buttons that have focus.
 */
export function useQueueKeys(onKey: (key: QueueKey) => void): void {
  const handler = useRef(onKey);
  useEffect(() => {
    handler.current = onKey;
  }, [onKey]);

  useEffect(() => {
    const listener = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTyping(event.target) || document.querySelector("dialog[open]")) return;
      const key = KEYS[event.key];
      if (!key) return;
      if (key === "open" && event.key === "Enter" && event.target instanceof HTMLElement && event.target.closest("a, button")) return;
      event.preventDefault();
      handler.current(key);
    };
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);
}

export const SHORTCUTS: { keys: string[]; does: string }[] = [
  { keys: ["j", "↓"], does: "next action" },
  { keys: ["k", "↑"], does: "previous action" },
  { keys: ["a"], does: "approve the selected action (LOW asks for a reason first)" },
  { keys: ["r"], does: "reject the selected action" },
  { keys: ["e"], does: "edit the selected action on its proposal page" },
  { keys: ["Enter", "o"], does: "open the proposal" },
  { keys: ["?"], does: "show these keys" },
  { keys: ["Esc"], does: "close a dialog (cancels a LOW approval)" },
];
