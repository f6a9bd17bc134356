import { splitRevenue } from '@helium/domain';
import type { AdIndexSnapshot } from './ad-index.ts';
import type { EventMoney } from './events.ts';

/**
 * The money of one billed event: its cost split between the publisher (its own share, else the network's), each
 * sales rep of the publisher or the advertiser, and the company (revenue.ts says how it rounds); a trial
 * campaign's cost is trial cost, paid to the publisher all the same.
 */
export function eventMoney(
  index: AdIndexSnapshot,
  cost: number,
  event: { publisherId: number; advertiserId: number; isTrial: boolean },
): EventMoney {
  const publisher = index.publishers.get(event.publisherId);
  const reps = new Set(
    [publisher?.salesRepUserId ?? null, index.advertiserSalesRep.get(event.advertiserId) ?? null].filter(
      (id): id is number => id !== null,
    ),
  );
  const split = splitRevenue({
    cost,
    publisherShareBp: publisher?.revenueShareBp ?? index.settings.publisherRevenueShareBp,
    salesRepShareBp: index.settings.salesRepRevenueShareBp,
    salesReps: reps.size,
    isTrial: event.isTrial,
  });
  return {
    cost: split.advertiserCost,
    publisherRevenue: split.publisher,
    salesRepRevenue: split.salesRep,
    companyRevenue: split.company,
    trialCost: split.trialCost,
  };
}
