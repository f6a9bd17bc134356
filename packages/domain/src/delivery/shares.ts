/** A share as a percentage with one decimal (12.34% -> 12.3); 0 when the total is 0. */
export function sharePct(part: number, total: number): number {
  if (total <= 0 || part <= 0) return 0;
  return Math.round((part / total) * 1000) / 10;
}

/** Ranks by weight, 1 for the largest; equal weights share a rank (1, 2, 2, 4). */
export function weightRanks(weights: readonly number[]): number[] {
  return weights.map((weight) => 1 + weights.filter((other) => other > weight).length);
}
