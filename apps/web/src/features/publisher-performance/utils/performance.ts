import { MIN_VALIDATED_SHARE_PCT, PERFORMANCE_HISTORY_DAYS, type TPerformanceHistoryRow } from '@helium/contracts';

/** Validated impressions as a percentage of pageviews; null without pageviews. */
export function validatedSharePct(pageviews: number, validatedImpressions: number): number | null {
  return pageviews > 0 ? (validatedImpressions / pageviews) * 100 : null;
}

/** A share as the screen shows it: one decimal. */
const asShown = (pct: number) => Math.round(pct * 10) / 10;

/**
 * The share of pageviews without a validated impression (never below 0), from the validated share as shown, so
 * that the two add up to 100.0% on the screen; null without pageviews.
 */
export function missingSharePct(pageviews: number, validatedImpressions: number): number | null {
  const validated = validatedSharePct(pageviews, validatedImpressions);
  return validated === null ? null : Math.max(0, 100 - asShown(validated));
}

/**
 * The missing share is shown red when fewer than 60% of pageviews have a validated impression, judged on the
 * share as shown (one decimal): 59.96% reads "60.0%" and is not red.
 */
export function isValidatedShareLow(pageviews: number, validatedImpressions: number): boolean {
  const validated = validatedSharePct(pageviews, validatedImpressions);
  return validated !== null && asShown(validated) < MIN_VALIDATED_SHARE_PCT;
}

/** A bar's width in percent of the widest (the largest daily pageviews), between 0 and 100. */
export function barWidthPct(value: number, max: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.min(100, (value / max) * 100);
}

/** Validated impressions of a day, desktop plus mobile. */
export function dayTotal(row: TPerformanceHistoryRow): number {
  return row.perfs_validated_impressions_desktop + row.perfs_validated_impressions_mobile;
}

/**
 * The average validated impressions per day over the last 30 days (yesterday and the 29 before): from the
 * publisher's first day with data in that window, so that a new publisher's average is not spread over days
 * before it started, and with the days without data after it counted as 0 (a week without the script lowers
 * the average). `today` is the day the history was read on (utcDayNumber of when it was fetched), not the
 * day it is now: after midnight the rows still end the day before that. Null without rows.
 */
export function averagePerDay(rows: readonly TPerformanceHistoryRow[], today: number): number | null {
  if (rows.length === 0) return null;
  const first = Math.min(...rows.map((row) => row.id));
  const last = Math.max(...rows.map((row) => row.id));
  // A browser clock behind the server's must not make the span shorter than the rows themselves.
  const days = Math.min(PERFORMANCE_HISTORY_DAYS, Math.max(today - first, last - first + 1));
  return rows.reduce((sum, row) => sum + dayTotal(row), 0) / days;
}

/** A dial's needle position in percent of its scale, between 0 and 100. */
export function dialPct(value: number, max: number): number {
  return barWidthPct(value, Math.max(1, max));
}

/**
 * The gauge of specification 02 section 9: a dial face of 150 px whose needle sweeps clockwise from the
 * 9 o'clock position (0) to the 3 o'clock position (the scale's maximum), 21 ticks along that arc, the
 * minimum and maximum written at 7 and 5 o'clock, and a needle that wiggles by up to 2.5% of the scale
 * every 200 ms so that a live dial looks alive.
 */
export const GAUGE = {
  size: 150,
  ticks: 21,
  minPosition: 9,
  maxPosition: 3,
  minLabelPosition: 7,
  maxLabelPosition: 5,
  wigglePct: 2.5,
  wiggleMs: 200,
} as const;

/** The angle in degrees (0 = 3 o'clock, clockwise, as SVG draws) of an hour position on a clock face. */
export function clockAngle(position: number): number {
  return (((position * 30 - 90) % 360) + 360) % 360;
}

/** The needle's angle for a position on the scale (0..100%), from the min position clockwise to the max. */
export function needleAngle(pct: number): number {
  const from = clockAngle(GAUGE.minPosition);
  const sweep = (clockAngle(GAUGE.maxPosition) - from + 360) % 360 || 360;
  return from + (sweep * Math.min(100, Math.max(0, pct))) / 100;
}

/** The needle's position after a wiggle: within 2.5% of the value, never outside the scale; still at 0. */
export function wiggledPct(pct: number, random: () => number = Math.random): number {
  if (pct <= 0) return 0;
  return Math.min(100, Math.max(0, pct + (random() * 2 - 1) * GAUGE.wigglePct));
}

/** A point of the dial face at `radius` from its centre and `angle` degrees. */
export function dialPoint(angle: number, radius: number): { x: number; y: number } {
  const radians = (angle * Math.PI) / 180;
  const centre = GAUGE.size / 2;
  return { x: centre + radius * Math.cos(radians), y: centre + radius * Math.sin(radians) };
}
