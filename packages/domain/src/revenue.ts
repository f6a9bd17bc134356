import { shareOf, type Micros } from './money.ts';

/** Cost of one validated impression at a CPM (both micro-euros), rounded down. */
export function impressionCost(cpm: Micros): Micros {
  return Math.floor(cpm / 1000);
}

/**
 * Cost of the impression that takes a campaign from `remainingBefore` impressions to one less: the
 * difference of the rounded prices of the two counts. Every impression of a CPM that is not a whole number
 * of micro-euros per impression then costs its fair part (1.2345 EUR CPM: 1,234 or 1,235 micro-euros), and
 * the impressions of a purchase add up exactly to its price, impressionsCost(purchased, cpm).
 */
export function impressionCostAt(cpm: Micros, remainingBefore: number): Micros {
  if (remainingBefore <= 0) return impressionCost(cpm);
  return impressionsCost(remainingBefore, cpm) - impressionsCost(remainingBefore - 1, cpm);
}

/** Cost of n validated impressions at a CPM, computed on the whole count so that rounding does not add up. */
export function impressionsCost(count: number, cpm: Micros): Micros {
  // Whole micro-euros per impression apart from the fraction: count * cpm alone could pass 2^53.
  const perImpression = Math.floor(cpm / 1000);
  return count * perImpression + Math.floor((count * (cpm - perImpression * 1000)) / 1000);
}

/** Cost of one unique click at a CPC. */
export function clickCost(cpc: Micros): Micros {
  return cpc;
}

/** The publisher's share of what its traffic costs, unless its own is set (docs/decisions.md section 6: 70%). */
export const DEFAULT_PUBLISHER_SHARE_BP = 7000;

export interface RevenueSplitInput {
  /** The cost of what was delivered, in micro-euros. */
  cost: Micros;
  /** The publisher's share in basis points (7000 = 70%). */
  publisherShareBp: number;
  /** The sales-rep share in basis points, applied once per sales rep involved. */
  salesRepShareBp: number;
  /** Distinct sales reps of the publisher and of the advertiser (0, 1 or 2). */
  salesReps: number;
  /** Trial credits: the advertiser pays nothing, the publisher is paid all the same. */
  isTrial: boolean;
}

export interface RevenueSplit {
  /** What the advertiser is charged (0 for trial credits). */
  advertiserCost: Micros;
  publisher: Micros;
  salesRep: Micros;
  /** cost - publisher - sales reps; admin stats subtract `trialCost` from it. */
  company: Micros;
  /** The cost of trial deliveries, carried by the company. */
  trialCost: Micros;
}

/**
 * docs/decisions.md section 6: shares are rounded down, the company keeps the remainder, so the parts always add
 * up to the cost exactly.
 */
export function splitRevenue(input: RevenueSplitInput): RevenueSplit {
  const cost = Math.max(0, Math.floor(input.cost));
  // A share outside 0-100% (a mistyped setting) would pay more than the cost or a negative amount.
  const publisher = shareOf(cost, clampBasisPoints(input.publisherShareBp));
  const salesRep = Math.min(
    cost - publisher,
    shareOf(cost, clampBasisPoints(input.salesRepShareBp)) * Math.max(0, input.salesReps),
  );
  return {
    advertiserCost: input.isTrial ? 0 : cost,
    publisher,
    salesRep,
    company: cost - publisher - salesRep,
    trialCost: input.isTrial ? cost : 0,
  };
}

function clampBasisPoints(basisPoints: number): number {
  return Math.min(10_000, Math.max(0, basisPoints));
}
