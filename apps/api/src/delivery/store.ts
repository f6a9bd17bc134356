import type {
  adClicks,
  adDecisions,
  adImpressions,
  adLeads,
  dailyAdStats,
  dailyPublisherStats,
  dailyUrlStats,
  installHeartbeats,
  invalidTraffic,
  owlIssueAds,
  pageviews,
  realtimeCounters,
  DatabaseHandle,
  PreparedStatement,
} from '@helium/db';
import type { DeliveryEvent } from './events.ts';
import { utcDay, utcMinute } from './visitor.ts';

/** An event about one ad shown on one publisher's page: what the per-ad daily summary is keyed by. */
type AdEvent = Extract<DeliveryEvent, { t: 'decision' | 'impression' | 'click' | 'lead' }>;

/** Adds rows to a map of counters keyed by a string, summing the numeric fields given. */
function accumulate<R extends Record<string, unknown>>(
  map: Map<string, R>,
  key: string,
  base: () => R,
  add: Record<string, number>,
) {
  let row = map.get(key);
  if (!row) map.set(key, (row = base()));
  for (const [field, value] of Object.entries(add)) {
    (row as Record<string, unknown>)[field] = ((row[field] as number) ?? 0) + (value as number);
  }
}

const JSON_TYPE_ID = 114;
const BATCH_ARGUMENTS = 14;

/** The one statement of a batch: record_delivery_batch (migration 0006) with each table's rows as JSON. */
const RECORD_DELIVERY_BATCH: PreparedStatement = {
  name: 'record_delivery_batch',
  text: `select record_delivery_batch(${Array.from({ length: BATCH_ARGUMENTS }, (_, index) => `$${index + 1}::json`).join(', ')})`,
  types: Array.from({ length: BATCH_ARGUMENTS }, () => JSON_TYPE_ID),
};

/**
 * Writes one batch of events in one transaction: the raw records, then the realtime and daily counters and
 * the campaigns' remaining credits. The caller answers the requests of the batch only after this resolves.
 */
export async function writeBatch(
  executePrepared: DatabaseHandle['executePrepared'],
  events: DeliveryEvent[],
): Promise<void> {
  const pageviewRows: (typeof pageviews.$inferInsert)[] = [];
  const decisionRows: (typeof adDecisions.$inferInsert)[] = [];
  const impressionRows: (typeof adImpressions.$inferInsert)[] = [];
  const clickRows: (typeof adClicks.$inferInsert)[] = [];
  const leadRows: (typeof adLeads.$inferInsert)[] = [];
  const invalidRows: (typeof invalidTraffic.$inferInsert)[] = [];
  const heartbeats = new Map<string, typeof installHeartbeats.$inferInsert>();
  const installed = new Set<number>();
  const owlRows: (typeof owlIssueAds.$inferInsert)[] = [];
  const realtime = new Map<string, typeof realtimeCounters.$inferInsert>();
  const daily = new Map<string, typeof dailyPublisherStats.$inferInsert>();
  const adDaily = new Map<string, typeof dailyAdStats.$inferInsert>();
  const urlDaily = new Map<string, typeof dailyUrlStats.$inferInsert>();
  const spentImpressions = new Map<number, number>();
  const spentClicks = new Map<number, number>();

  const publisherDay = (publisherId: number, device: 'desktop' | 'mobile', at: Date, add: Record<string, number>) =>
    accumulate(daily, `${utcDay(at)}|${publisherId}|${device}`, () => ({ day: utcDay(at), publisherId, device }), add);
  const adDay = (event: AdEvent, add: Record<string, number>) =>
    accumulate(
      adDaily,
      `${utcDay(event.at)}|${event.adId}|${event.publisherId}|${event.device}`,
      () => ({
        day: utcDay(event.at),
        adId: event.adId,
        publisherId: event.publisherId,
        device: event.device,
        campaignId: event.campaignId,
        advertiserId: event.advertiserId,
        channel: event.channel,
      }),
      add,
    );
  const realtimeMinute = (publisherId: number, at: Date, add: Record<string, number>) =>
    accumulate(
      realtime,
      `${publisherId}|${utcMinute(at).getTime()}`,
      () => ({ publisherId, minute: utcMinute(at) }),
      add,
    );

  for (const event of events) {
    switch (event.t) {
      case 'pageview': {
        pageviewRows.push({
          id: event.id,
          publisherId: event.publisherId,
          device: event.device,
          url: event.url,
          visitor: event.visitor,
          invalidReason: event.invalidReason,
          createdAt: event.at,
        });
        if (event.invalidReason) {
          publisherDay(event.publisherId, event.device, event.at, { invalidPageviews: 1 });
          break;
        }
        publisherDay(event.publisherId, event.device, event.at, { pageviews: 1 });
        realtimeMinute(event.publisherId, event.at, {
          [event.device === 'mobile' ? 'pageviewsMobile' : 'pageviewsDesktop']: 1,
        });
        if (event.url) {
          accumulate(
            urlDaily,
            `${utcDay(event.at)}|${event.publisherId}|${event.url}|${event.device}|0`,
            () => ({ day: utcDay(event.at), publisherId: event.publisherId, url: event.url, device: event.device }),
            { pageviews: 1 },
          );
        }
        break;
      }
      case 'decision': {
        decisionRows.push({
          id: event.id,
          pageviewId: event.pageviewId,
          publisherId: event.publisherId,
          adId: event.adId,
          campaignId: event.campaignId,
          channel: event.channel,
          slot: event.slot,
          device: event.device,
          url: event.url,
          visitor: event.visitor,
          createdAt: event.at,
        });
        publisherDay(event.publisherId, event.device, event.at, { served: 1 });
        adDay(event, { served: 1 });
        break;
      }
      case 'impression':
      case 'click':
      case 'lead': {
        const isImpression = event.t === 'impression';
        const isClick = event.t === 'click';
        const money = event.t === 'lead' ? null : event.money;
        const billedClick = isClick && event.isUnique;
        if (isImpression) {
          impressionRows.push({
            decisionId: event.decisionId,
            publisherId: event.publisherId,
            adId: event.adId,
            campaignId: event.campaignId,
            device: event.device,
            ...event.money,
            createdAt: event.at,
          });
          if (event.spendsCredit)
            spentImpressions.set(event.campaignId, (spentImpressions.get(event.campaignId) ?? 0) + 1);
          publisherDay(event.publisherId, event.device, event.at, { impressions: 1 });
          realtimeMinute(event.publisherId, event.at, {
            [event.device === 'mobile' ? 'impressionsMobile' : 'impressionsDesktop']: 1,
          });
        } else if (event.t === 'click') {
          clickRows.push({
            id: event.id,
            decisionId: event.decisionId,
            publisherId: event.publisherId,
            adId: event.adId,
            campaignId: event.campaignId,
            device: event.device,
            visitor: event.visitor,
            isUnique: event.isUnique,
            ...event.money,
            createdAt: event.at,
          });
          if (event.spendsCredit) spentClicks.set(event.campaignId, (spentClicks.get(event.campaignId) ?? 0) + 1);
          if (event.isUnique) publisherDay(event.publisherId, event.device, event.at, { clicks: 1 });
        } else {
          leadRows.push({
            clickId: event.clickId,
            publisherId: event.publisherId,
            adId: event.adId,
            campaignId: event.campaignId,
            device: event.device,
            source: event.source,
            createdAt: event.at,
          });
        }
        const counts: Record<string, number> = isImpression
          ? { impressions: 1 }
          : isClick
            ? { clicks: billedClick ? 1 : 0, allClicks: 1 }
            : { leads: 1 };
        const moneyCounts: Record<string, number> = money
          ? {
              cost: money.cost,
              publisherRevenue: money.publisherRevenue,
              salesRepRevenue: money.salesRepRevenue,
              companyRevenue: money.companyRevenue,
              trialCost: money.trialCost,
            }
          : {};
        adDay(event, { ...counts, ...moneyCounts });
        if (event.url) {
          const { allClicks: _all, ...urlCounts } = counts;
          accumulate(
            urlDaily,
            `${utcDay(event.at)}|${event.publisherId}|${event.url}|${event.device}|${event.adId}`,
            () => ({
              day: utcDay(event.at),
              publisherId: event.publisherId,
              url: event.url,
              device: event.device,
              adId: event.adId,
              campaignId: event.campaignId,
            }),
            { ...urlCounts, cost: money?.cost ?? 0 },
          );
        }
        break;
      }
      case 'invalid':
        invalidRows.push({
          kind: event.kind,
          reason: event.reason,
          publisherId: event.publisherId,
          adId: event.adId,
          decisionId: event.decisionId,
          visitor: event.visitor,
          userAgent: event.userAgent?.slice(0, 500) ?? null,
          createdAt: event.at,
        });
        break;
      case 'heartbeat':
        heartbeats.set(`${event.publisherId}|${event.host}`, {
          publisherId: event.publisherId,
          host: event.host,
          lastSeenAt: event.at,
        });
        if (event.isRegisteredDomain) installed.add(event.publisherId);
        break;
      case 'owlIssue':
        owlRows.push({
          publisherId: event.publisherId,
          bannerIndex: event.bannerIndex,
          issue: event.issue,
          adId: event.adId,
          campaignId: event.campaignId,
          advertiserId: event.advertiserId,
          createdAt: event.at,
        });
        break;
    }
  }

  // The whole batch is ONE call of the stored function record_delivery_batch (migration 0006): each table's
  // rows go as one JSON parameter, which costs far less per row than a parameter per field, and the
  // function's statements keep their plans between calls. So a batch is one round trip and one commit, and
  // the server's thread only serialises the rows. Its statements run in one transaction, as one statement.
  // It is a prepared statement run without the query builder: a batch is the hottest call of the server.
  const spent = [...new Set([...spentImpressions.keys(), ...spentClicks.keys()])].map((id) => ({
    id,
    impressions: spentImpressions.get(id) ?? 0,
    clicks: spentClicks.get(id) ?? 0,
  }));
  const rows = (list: readonly unknown[]) => (list.length > 0 ? JSON.stringify(list) : null);
  const argumentsInOrder = [
    rows(pageviewRows),
    rows(decisionRows),
    rows(impressionRows),
    rows(clickRows),
    rows(leadRows),
    rows(invalidRows),
    rows(owlRows),
    rows([...realtime.values()]),
    rows([...daily.values()]),
    rows([...adDaily.values()]),
    rows([...urlDaily.values()]),
    rows(spent),
    rows([...heartbeats.values()]),
    rows([...installed]),
  ];
  if (argumentsInOrder.every((argument) => argument === null)) return;
  await executePrepared(RECORD_DELIVERY_BATCH, argumentsInOrder);
}
