/** The footnote: a daily average over the past N days, or "Yesterday" when N is 1 (specification 01, section 2). */
export function footnoteKey(days: number): {
  key: 'adminStats.footnoteYesterday' | 'adminStats.footnoteAverage';
  count: number;
} {
  return days === 1
    ? { key: 'adminStats.footnoteYesterday', count: 1 }
    : { key: 'adminStats.footnoteAverage', count: days };
}

/** A device's validated share is shown red when something is missing to reach the 60 % rule. */
export function isBelowRule(missingPct: number): boolean {
  return missingPct > 0;
}
