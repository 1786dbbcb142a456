/** A stable colour per community, shared by the canvas and the lists so both agree. */
const PALETTE = [
  "#6366f1",
  "#0ea5e9",
  "#10b981",
  "#f59e0b",
  "#ef4444",
  "#8b5cf6",
  "#14b8a6",
  "#ec4899",
  "#84cc16",
  "#f97316",
  "#06b6d4",
  "#a855f7",
];

const NO_COMMUNITY = "#94a3b8";

export function communityColor(community: string | number | null): string {
  if (community === null) return NO_COMMUNITY;
  if (typeof community === "number" && Number.isInteger(community)) {
    return PALETTE[((community % PALETTE.length) + PALETTE.length) % PALETTE.length] ?? NO_COMMUNITY;
  }
  let hash = 0;
  for (const ch of String(community)) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? NO_COMMUNITY;
}
