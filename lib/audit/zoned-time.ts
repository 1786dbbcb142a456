/**
 * Calendar days and clock times in a named time zone, without a date library. The audit page
 * renders on the server and hydrates in the browser, so both format with the same explicit zone
 * (the server's) instead of whatever zone each side happens to run in.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(date: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return { year: parts.year ?? 0, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0 };
}

const pad = (n: number) => String(n).padStart(2, "0");

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatterFor(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** `YYYY-MM-DD` of the instant in the zone. */
export function dayKeyIn(date: Date, timeZone: string): string {
  const w = wallClock(date, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** `HH:MM` (24-hour) of the instant in the zone. */
export function clockTimeIn(date: Date, timeZone: string): string {
  const w = wallClock(date, timeZone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** How far the zone's wall clock is ahead of UTC at that instant, in milliseconds. */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const w = wallClock(new Date(instant), timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant a `YYYY-MM-DD` day begins in the zone (DST-safe: the offset is re-checked once). */
export function startOfDayIn(dayKey: string, timeZone: string): Date {
  const midnightUtc = Date.parse(`${dayKey}T00:00:00Z`);
  if (Number.isNaN(midnightUtc)) throw new RangeError(`not a date: ${dayKey}`);
  const first = midnightUtc - zoneOffsetMs(midnightUtc, timeZone);
  const second = midnightUtc - zoneOffsetMs(first, timeZone);
  return new Date(second);
}

/** `YYYY-MM-DD` plus n days. */
export function addDays(dayKey: string, days: number): string {
  const date = new Date(Date.parse(`${dayKey}T00:00:00Z`) + days * 86_400_000);
  return date.toISOString().slice(0, 10);
}
