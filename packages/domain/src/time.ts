/** Durations in milliseconds, named once (every "day" here is a UTC day: days never have 23 or 25 hours). */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** The UTC day a time falls in, as days since 1970-01-01 (a stable key for per-day rows). */
export function utcDayNumber(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

/** The first millisecond of the UTC day a time falls in. */
export function startOfUtcDay(ms: number): number {
  return utcDayNumber(ms) * DAY_MS;
}
