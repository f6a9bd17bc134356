import type {
  adClicks,
  adDecisions,
  adImpressions,
  adLeads,
  dailyAdStats,
  dailyCountryStats,
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
import { UNKNOWN_COUNTRY } from '@helium/domain';
import type { DeliveryEvent, EventMoney } from './events.ts';
import { utcDay, utcMinute } from './visitor.ts';

/** An event about one ad shown on one publisher's page: what the per-ad daily summary is keyed by. */
type AdEvent = Extract<DeliveryEvent, { t: 'decision' | 'impression' | 'click' | 'lead' }>;

/** A table's insert row as it travels in JSON: instants as ISO text (written once per instant, see `isoText`). */
type JsonRow<Row> = { [Field in keyof Row]: Row[Field] extends Date | undefined ? string : Row[Field] };

/** The numeric fields of a summary row, which a batch adds to. */
type CounterField<Row> = { [Field in keyof Row]-?: NonNullable<Row[Field]> extends number ? Field : never }[keyof Row];

/** The row of `map` under `key`, created by `create` on first use. */
function summaryRow<Row>(map: Map<string, Row>, key: string, create: () => NoInfer<Row>): Row {
  let row = map.get(key);
  if (!row) map.set(key, (row = create()));
  return row;
}

/**
 * A summary's rows in the order of their keys: every instance's batches then update the same rows in the same order,
 * so that two batches written at once on PostgreSQL wait for each other rather than deadlock.
 */
function inKeyOrder<Row>(rows: Map<string, Row>): Row[] {
  return [...rows.keys()].sort().map((key) => rows.get(key)!);
}

function add<Row>(row: Row, field: CounterField<Row>, amount: number) {
  (row[field] as number | undefined) = ((row[field] as number | undefined) ?? 0) + amount;
}

// Events of one request, and often of one millisecond, share their instant: its ISO text is made once.
let lastInstant = NaN;
let lastIsoText = '';
function isoText(at: Date): string {
  const ms = at.getTime();
  if (ms !== lastInstant) {
    lastInstant = ms;
    lastIsoText = at.toISOString();
  }
  return lastIsoText;
}

/*
 * One row builder per table that record_delivery_batch writes: each turns the batch's events, in their order,
 * into that table's rows (keyed by the Drizzle schema's field names, which the function reads: the test
 * packages/db/test/record-delivery-batch.test.ts checks that its columns and the schema agree).
 */

export function pageviewRows(events: readonly DeliveryEvent[]): JsonRow<typeof pageviews.$inferInsert>[] {
  const rows: JsonRow<typeof pageviews.$inferInsert>[] = [];
  for (const event of events) {
    if (event.t !== 'pageview') continue;
    rows.push({
      id: event.id,
      publisherId: event.publisherId,
      device: event.device,
      url: event.url,
      visitor: event.visitor,
      invalidReason: event.invalidReason,
      createdAt: isoText(event.at),
    });
  }
  return rows;
}

export function adDecisionRows(events: readonly DeliveryEvent[]): JsonRow<typeof adDecisions.$inferInsert>[] {
  const rows: JsonRow<typeof adDecisions.$inferInsert>[] = [];
  for (const event of events) {
    if (event.t !== 'decision') continue;
    rows.push({
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
      ip: event.ip,
      country: event.country ?? UNKNOWN_COUNTRY,
      createdAt: isoText(event.at),
    });
  }
  return rows;
}

export function adImpressionRows(events: readonly DeliveryEvent[]): JsonRow<typeof adImpressions.$inferInsert>[] {
  const rows: JsonRow<typeof adImpressions.$inferInsert>[] = [];
  for (const event of events) {
    if (event.t !== 'impression') continue;
    rows.push({
      decisionId: event.decisionId,
      publisherId: event.publisherId,
      adId: event.adId,
      campaignId: event.campaignId,
      device: event.device,
      ...event.money,
      createdAt: isoText(event.at),
    });
  }
  return rows;
}

export function adClickRows(events: readonly DeliveryEvent[]): JsonRow<typeof adClicks.$inferInsert>[] {
  const rows: JsonRow<typeof adClicks.$inferInsert>[] = [];
  for (const event of events) {
    if (event.t !== 'click') continue;
    rows.push({
      id: event.id,
      decisionId: event.decisionId,
      publisherId: event.publisherId,
      adId: event.adId,
      campaignId: event.campaignId,
      device: event.device,
      visitor: event.visitor,
      isUnique: event.isUnique,
      ...event.money,
      createdAt: isoText(event.at),
    });
  }
  return rows;
}

export function adLeadRows(events: readonly DeliveryEvent[]): JsonRow<typeof adLeads.$inferInsert>[] {
  const rows: JsonRow<typeof adLeads.$inferInsert>[] = [];
  for (const event of events) {
    if (event.t !== 'lead') continue;
    rows.push({
      clickId: event.clickId,
      publisherId: event.publisherId,
      adId: event.adId,
      campaignId: event.campaignId,
      device: event.device,
      source: event.source,
      createdAt: isoText(event.at),
    });
  }
  return rows;
}

/** The user agent is kept to its first 500 characters. */
export function invalidTrafficRows(events: readonly DeliveryEvent[]): JsonRow<typeof invalidTraffic.$inferInsert>[] {
  const rows: JsonRow<typeof invalidTraffic.$inferInsert>[] = [];
  for (const event of events) {
    if (event.t !== 'invalid') continue;
    rows.push({
      kind: event.kind,
      reason: event.reason,
      publisherId: event.publisherId,
      adId: event.adId,
      decisionId: event.decisionId,
      visitor: event.visitor,
      userAgent: event.userAgent?.slice(0, 500) ?? null,
      createdAt: isoText(event.at),
    });
  }
  return rows;
}

export function owlIssueAdRows(events: readonly DeliveryEvent[]): JsonRow<typeof owlIssueAds.$inferInsert>[] {
  const rows: JsonRow<typeof owlIssueAds.$inferInsert>[] = [];
  for (const event of events) {
    if (event.t !== 'owlIssue') continue;
    rows.push({
      publisherId: event.publisherId,
      bannerIndex: event.bannerIndex,
      issue: event.issue,
      adId: event.adId,
      campaignId: event.campaignId,
      advertiserId: event.advertiserId,
      createdAt: isoText(event.at),
    });
  }
  return rows;
}

/** Per publisher and minute: valid pageviews and impressions, by device. */
export function realtimeCounterRows(events: readonly DeliveryEvent[]): JsonRow<typeof realtimeCounters.$inferInsert>[] {
  const realtime = new Map<string, JsonRow<typeof realtimeCounters.$inferInsert>>();
  const realtimeMinute = (publisherId: number, at: Date) => {
    const minute = utcMinute(at);
    return summaryRow(realtime, `${publisherId}|${minute.getTime()}`, () => ({
      publisherId,
      minute: minute.toISOString(),
    }));
  };
  for (const event of events) {
    if (event.t === 'pageview' && !event.invalidReason) {
      add(
        realtimeMinute(event.publisherId, event.at),
        event.device === 'mobile' ? 'pageviewsMobile' : 'pageviewsDesktop',
        1,
      );
    } else if (event.t === 'impression') {
      add(
        realtimeMinute(event.publisherId, event.at),
        event.device === 'mobile' ? 'impressionsMobile' : 'impressionsDesktop',
        1,
      );
    }
  }
  return inKeyOrder(realtime);
}

/**
 * Per UTC day, publisher and device: pageviews (an invalid one only in invalidPageviews), decisions served,
 * impressions, and unique clicks only (the billed ones).
 */
export function dailyPublisherStatsRows(events: readonly DeliveryEvent[]): (typeof dailyPublisherStats.$inferInsert)[] {
  const daily = new Map<string, typeof dailyPublisherStats.$inferInsert>();
  const publisherDay = (at: Date, publisherId: number, device: 'desktop' | 'mobile') => {
    const day = utcDay(at);
    return summaryRow(daily, `${day}|${publisherId}|${device}`, () => ({ day, publisherId, device }));
  };
  for (const event of events) {
    switch (event.t) {
      case 'pageview':
        add(
          publisherDay(event.at, event.publisherId, event.device),
          event.invalidReason ? 'invalidPageviews' : 'pageviews',
          1,
        );
        break;
      case 'decision':
        add(publisherDay(event.at, event.publisherId, event.device), 'served', 1);
        break;
      case 'impression':
        add(publisherDay(event.at, event.publisherId, event.device), 'impressions', 1);
        break;
      case 'click':
        if (event.isUnique) add(publisherDay(event.at, event.publisherId, event.device), 'clicks', 1);
        break;
    }
  }
  return inKeyOrder(daily);
}

/**
 * Per UTC day, ad, publisher and device: decisions served, impressions, clicks (unique ones in clicks, every
 * one in allClicks), leads, and the money of impressions and clicks.
 */
export function dailyAdStatsRows(events: readonly DeliveryEvent[]): (typeof dailyAdStats.$inferInsert)[] {
  const adDaily = new Map<string, typeof dailyAdStats.$inferInsert>();
  const adDay = (event: AdEvent) => {
    const day = utcDay(event.at);
    return summaryRow(adDaily, `${day}|${event.adId}|${event.publisherId}|${event.device}`, () => ({
      day,
      adId: event.adId,
      publisherId: event.publisherId,
      device: event.device,
      campaignId: event.campaignId,
      advertiserId: event.advertiserId,
      channel: event.channel,
    }));
  };
  const addMoney = (row: typeof dailyAdStats.$inferInsert, money: EventMoney) => {
    add(row, 'cost', money.cost);
    add(row, 'publisherRevenue', money.publisherRevenue);
    add(row, 'salesRepRevenue', money.salesRepRevenue);
    add(row, 'companyRevenue', money.companyRevenue);
    add(row, 'trialCost', money.trialCost);
  };
  for (const event of events) {
    switch (event.t) {
      case 'decision':
        add(adDay(event), 'served', 1);
        break;
      case 'impression': {
        const row = adDay(event);
        add(row, 'impressions', 1);
        addMoney(row, event.money);
        break;
      }
      case 'click': {
        // Only a unique click is billed and shown as a click; every click is kept in allClicks.
        const row = adDay(event);
        add(row, 'clicks', event.isUnique ? 1 : 0);
        addMoney(row, event.money);
        add(row, 'allClicks', 1);
        break;
      }
      case 'lead':
        add(adDay(event), 'leads', 1);
        break;
    }
  }
  return inKeyOrder(adDaily);
}

/**
 * Per UTC day, page URL and device: ad 0 holds the page's valid pageviews, another ad's row its impressions,
 * unique clicks, leads and cost on that page. Events without a URL have no row.
 */
export function dailyUrlStatsRows(events: readonly DeliveryEvent[]): (typeof dailyUrlStats.$inferInsert)[] {
  const urlDaily = new Map<string, typeof dailyUrlStats.$inferInsert>();
  const pageDay = (event: Extract<DeliveryEvent, { t: 'pageview' }>) => {
    const day = utcDay(event.at);
    return summaryRow(urlDaily, `${day}|${event.publisherId}|${event.url}|${event.device}|0`, () => ({
      day,
      publisherId: event.publisherId,
      url: event.url,
      device: event.device,
    }));
  };
  /** An ad event in its page's row of that ad: `amount` added to `field`, and its cost. */
  const adPageCounts = (event: AdEvent, field: 'impressions' | 'clicks' | 'leads', amount: number, cost: number) => {
    const day = utcDay(event.at);
    const row = summaryRow(urlDaily, `${day}|${event.publisherId}|${event.url}|${event.device}|${event.adId}`, () => ({
      day,
      publisherId: event.publisherId,
      url: event.url,
      device: event.device,
      adId: event.adId,
      campaignId: event.campaignId,
    }));
    add(row, field, amount);
    add(row, 'cost', cost);
  };
  for (const event of events) {
    switch (event.t) {
      case 'pageview':
        if (event.url && !event.invalidReason) add(pageDay(event), 'pageviews', 1);
        break;
      case 'impression':
        if (event.url) adPageCounts(event, 'impressions', 1, event.money.cost);
        break;
      case 'click':
        if (event.url) adPageCounts(event, 'clicks', event.isUnique ? 1 : 0, event.money.cost);
        break;
      case 'lead':
        if (event.url) adPageCounts(event, 'leads', 1, 0);
        break;
    }
  }
  return inKeyOrder(urlDaily);
}

/**
 * Per campaign, UTC day and the visitor's country (the decision's): impressions, unique clicks and their cost,
 * as daily_ad_stats counts them, so that a campaign's countries add up to its totals.
 */
export function dailyCountryStatsRows(events: readonly DeliveryEvent[]): (typeof dailyCountryStats.$inferInsert)[] {
  const countryDaily = new Map<string, typeof dailyCountryStats.$inferInsert>();
  const countryDay = (event: AdEvent) => {
    const day = utcDay(event.at);
    const country = event.country ?? UNKNOWN_COUNTRY;
    return summaryRow(countryDaily, `${event.campaignId}|${day}|${country}`, () => ({
      campaignId: event.campaignId,
      day,
      country,
    }));
  };
  for (const event of events) {
    if (event.t === 'impression') {
      const row = countryDay(event);
      add(row, 'impressions', 1);
      add(row, 'cost', event.money.cost);
    } else if (event.t === 'click') {
      const row = countryDay(event);
      add(row, 'clicks', event.isUnique ? 1 : 0);
      add(row, 'cost', event.money.cost);
    }
  }
  return inKeyOrder(countryDaily);
}

/** Credits spent per campaign (update of campaigns): impressions and clicks that spend one. */
export function campaignCreditRows(
  events: readonly DeliveryEvent[],
): Array<{ id: number; impressions: number; clicks: number }> {
  const spentImpressions = new Map<number, number>();
  const spentClicks = new Map<number, number>();
  for (const event of events) {
    if (event.t === 'impression' && event.spendsCredit) {
      spentImpressions.set(event.campaignId, (spentImpressions.get(event.campaignId) ?? 0) + 1);
    } else if (event.t === 'click' && event.spendsCredit) {
      spentClicks.set(event.campaignId, (spentClicks.get(event.campaignId) ?? 0) + 1);
    }
  }
  const ids = [...new Set([...spentImpressions.keys(), ...spentClicks.keys()])].sort((a, b) => a - b);
  return ids.map((id) => ({
    id,
    impressions: spentImpressions.get(id) ?? 0,
    clicks: spentClicks.get(id) ?? 0,
  }));
}

/** One row per publisher and host: the batch's last heartbeat there. */
export function installHeartbeatRows(
  events: readonly DeliveryEvent[],
): JsonRow<typeof installHeartbeats.$inferInsert>[] {
  const heartbeats = new Map<string, JsonRow<typeof installHeartbeats.$inferInsert>>();
  for (const event of events) {
    if (event.t !== 'heartbeat') continue;
    heartbeats.set(`${event.publisherId}|${event.host}`, {
      publisherId: event.publisherId,
      host: event.host,
      lastSeenAt: isoText(event.at),
    });
  }
  return inKeyOrder(heartbeats);
}

/** The publishers a heartbeat of the batch installs (update of publishers), each once. */
export function installedPublisherIds(events: readonly DeliveryEvent[]): number[] {
  const installed = new Set<number>();
  for (const event of events) if (event.t === 'heartbeat' && event.installs) installed.add(event.publisherId);
  return [...installed];
}

/** record_delivery_batch's parameters in their order (migrations 0006, 0015, 0021), each with the builder of its rows. */
export const BATCH_PARAMETERS = [
  ['pageview_rows', pageviewRows],
  ['decision_rows', adDecisionRows],
  ['impression_rows', adImpressionRows],
  ['click_rows', adClickRows],
  ['lead_rows', adLeadRows],
  ['invalid_rows', invalidTrafficRows],
  ['owl_rows', owlIssueAdRows],
  ['realtime_rows', realtimeCounterRows],
  ['daily_publisher_rows', dailyPublisherStatsRows],
  ['daily_ad_rows', dailyAdStatsRows],
  ['daily_url_rows', dailyUrlStatsRows],
  ['spent_rows', campaignCreditRows],
  ['heartbeat_rows', installHeartbeatRows],
  ['installed_publishers', installedPublisherIds],
  ['daily_country_rows', dailyCountryStatsRows],
] as const satisfies ReadonlyArray<readonly [string, (events: readonly DeliveryEvent[]) => readonly unknown[]]>;

const JSON_TYPE_ID = 114;

/** The one statement of a batch: record_delivery_batch (migration 0006) with each table's rows as JSON. */
const RECORD_DELIVERY_BATCH: PreparedStatement = {
  name: 'record_delivery_batch',
  text: `select record_delivery_batch(${BATCH_PARAMETERS.map((_, index) => `$${index + 1}::json`).join(', ')})`,
  types: BATCH_PARAMETERS.map(() => JSON_TYPE_ID),
};

/** A campaign's credits after a batch spent some: id, remaining impressions, remaining clicks, credits version. */
export type CreditsAfter = [id: number, impressions: number, clicks: number, version: number];

/**
 * Writes one batch of events in one transaction: the raw records, then the realtime and daily counters and
 * the campaigns' remaining credits. The caller answers the requests of the batch only after this resolves.
 * Answers the credits of the campaigns the batch spent, as the database left them.
 */
export async function writeBatch(
  executePrepared: DatabaseHandle['executePrepared'],
  events: DeliveryEvent[],
): Promise<CreditsAfter[]> {
  // The whole batch is ONE call of the stored function record_delivery_batch (migration 0006): each table's
  // rows go as one JSON parameter, which costs far less per row than a parameter per field, and the
  // function's statements keep their plans between calls. So a batch is one round trip and one commit, and
  // the server's thread only serialises the rows. Its statements run in one transaction, as one statement.
  // It is a prepared statement run without the query builder: a batch is the hottest call of the server.
  const argumentsInOrder = BATCH_PARAMETERS.map(([, rowsOf]) => {
    const rows: readonly unknown[] = rowsOf(events);
    return rows.length > 0 ? JSON.stringify(rows) : null;
  });
  if (argumentsInOrder.every((argument) => argument === null)) return [];
  const answer = await executePrepared(RECORD_DELIVERY_BATCH, argumentsInOrder);
  return ((typeof answer === 'string' ? JSON.parse(answer) : answer) ?? []) as CreditsAfter[];
}
