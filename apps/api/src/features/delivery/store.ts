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

function add<Row>(row: Row, field: CounterField<Row>, amount: number) {
  (row[field] as number | undefined) = ((row[field] as number | undefined) ?? 0) + amount;
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
  const pageviewRows: JsonRow<typeof pageviews.$inferInsert>[] = [];
  const decisionRows: JsonRow<typeof adDecisions.$inferInsert>[] = [];
  const impressionRows: JsonRow<typeof adImpressions.$inferInsert>[] = [];
  const clickRows: JsonRow<typeof adClicks.$inferInsert>[] = [];
  const leadRows: JsonRow<typeof adLeads.$inferInsert>[] = [];
  const invalidRows: JsonRow<typeof invalidTraffic.$inferInsert>[] = [];
  const heartbeats = new Map<string, JsonRow<typeof installHeartbeats.$inferInsert>>();
  const installed = new Set<number>();
  const owlRows: JsonRow<typeof owlIssueAds.$inferInsert>[] = [];
  const realtime = new Map<string, JsonRow<typeof realtimeCounters.$inferInsert>>();
  const daily = new Map<string, typeof dailyPublisherStats.$inferInsert>();
  const adDaily = new Map<string, typeof dailyAdStats.$inferInsert>();
  const urlDaily = new Map<string, typeof dailyUrlStats.$inferInsert>();
  const spentImpressions = new Map<number, number>();
  const spentClicks = new Map<number, number>();

  // Events of one request, and often of one millisecond, share their instant: its ISO text is made once.
  let lastInstant = NaN;
  let lastIsoText = '';
  const isoText = (at: Date) => {
    const ms = at.getTime();
    if (ms !== lastInstant) {
      lastInstant = ms;
      lastIsoText = at.toISOString();
    }
    return lastIsoText;
  };
  const publisherDay = (day: string, publisherId: number, device: 'desktop' | 'mobile') =>
    summaryRow(daily, `${day}|${publisherId}|${device}`, () => ({ day, publisherId, device }));
  const adDay = (day: string, event: AdEvent) =>
    summaryRow(adDaily, `${day}|${event.adId}|${event.publisherId}|${event.device}`, () => ({
      day,
      adId: event.adId,
      publisherId: event.publisherId,
      device: event.device,
      campaignId: event.campaignId,
      advertiserId: event.advertiserId,
      channel: event.channel,
    }));
  const realtimeMinute = (publisherId: number, at: Date) => {
    const minute = utcMinute(at);
    return summaryRow(realtime, `${publisherId}|${minute.getTime()}`, () => ({
      publisherId,
      minute: minute.toISOString(),
    }));
  };
  const urlDay = (day: string, event: { publisherId: number; url: string; device: 'desktop' | 'mobile' }) =>
    summaryRow(urlDaily, `${day}|${event.publisherId}|${event.url}|${event.device}|0`, () => ({
      day,
      publisherId: event.publisherId,
      url: event.url,
      device: event.device,
    }));
  const adUrlDay = (day: string, event: AdEvent) =>
    summaryRow(urlDaily, `${day}|${event.publisherId}|${event.url}|${event.device}|${event.adId}`, () => ({
      day,
      publisherId: event.publisherId,
      url: event.url,
      device: event.device,
      adId: event.adId,
      campaignId: event.campaignId,
    }));
  /** An ad event in its ad's and its page's daily rows: `amount` added to `field`, with its money. */
  const adDayCounts = (
    day: string,
    event: AdEvent,
    field: 'impressions' | 'clicks' | 'leads',
    amount: number,
    money: EventMoney | null,
  ) => {
    const adRow = adDay(day, event);
    add(adRow, field, amount);
    if (money) {
      add(adRow, 'cost', money.cost);
      add(adRow, 'publisherRevenue', money.publisherRevenue);
      add(adRow, 'salesRepRevenue', money.salesRepRevenue);
      add(adRow, 'companyRevenue', money.companyRevenue);
      add(adRow, 'trialCost', money.trialCost);
    }
    if (event.url) {
      const urlRow = adUrlDay(day, event);
      add(urlRow, field, amount);
      add(urlRow, 'cost', money?.cost ?? 0);
    }
    return adRow;
  };

  for (const event of events) {
    switch (event.t) {
      case 'pageview': {
        const day = utcDay(event.at);
        pageviewRows.push({
          id: event.id,
          publisherId: event.publisherId,
          device: event.device,
          url: event.url,
          visitor: event.visitor,
          invalidReason: event.invalidReason,
          createdAt: isoText(event.at),
        });
        if (event.invalidReason) {
          add(publisherDay(day, event.publisherId, event.device), 'invalidPageviews', 1);
          break;
        }
        add(publisherDay(day, event.publisherId, event.device), 'pageviews', 1);
        add(
          realtimeMinute(event.publisherId, event.at),
          event.device === 'mobile' ? 'pageviewsMobile' : 'pageviewsDesktop',
          1,
        );
        if (event.url) add(urlDay(day, event), 'pageviews', 1);
        break;
      }
      case 'decision': {
        const day = utcDay(event.at);
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
          createdAt: isoText(event.at),
        });
        add(publisherDay(day, event.publisherId, event.device), 'served', 1);
        add(adDay(day, event), 'served', 1);
        break;
      }
      case 'impression': {
        const day = utcDay(event.at);
        impressionRows.push({
          decisionId: event.decisionId,
          publisherId: event.publisherId,
          adId: event.adId,
          campaignId: event.campaignId,
          device: event.device,
          ...event.money,
          createdAt: isoText(event.at),
        });
        if (event.spendsCredit)
          spentImpressions.set(event.campaignId, (spentImpressions.get(event.campaignId) ?? 0) + 1);
        add(publisherDay(day, event.publisherId, event.device), 'impressions', 1);
        add(
          realtimeMinute(event.publisherId, event.at),
          event.device === 'mobile' ? 'impressionsMobile' : 'impressionsDesktop',
          1,
        );
        adDayCounts(day, event, 'impressions', 1, event.money);
        break;
      }
      case 'click': {
        const day = utcDay(event.at);
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
          createdAt: isoText(event.at),
        });
        if (event.spendsCredit) spentClicks.set(event.campaignId, (spentClicks.get(event.campaignId) ?? 0) + 1);
        // Only a unique click is billed and shown as a click; every click is kept in allClicks.
        if (event.isUnique) add(publisherDay(day, event.publisherId, event.device), 'clicks', 1);
        add(adDayCounts(day, event, 'clicks', event.isUnique ? 1 : 0, event.money), 'allClicks', 1);
        break;
      }
      case 'lead': {
        const day = utcDay(event.at);
        leadRows.push({
          clickId: event.clickId,
          publisherId: event.publisherId,
          adId: event.adId,
          campaignId: event.campaignId,
          device: event.device,
          source: event.source,
          createdAt: isoText(event.at),
        });
        adDayCounts(day, event, 'leads', 1, null);
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
          createdAt: isoText(event.at),
        });
        break;
      case 'heartbeat':
        heartbeats.set(`${event.publisherId}|${event.host}`, {
          publisherId: event.publisherId,
          host: event.host,
          lastSeenAt: isoText(event.at),
        });
        if (event.installs) installed.add(event.publisherId);
        break;
      case 'owlIssue':
        owlRows.push({
          publisherId: event.publisherId,
          bannerIndex: event.bannerIndex,
          issue: event.issue,
          adId: event.adId,
          campaignId: event.campaignId,
          advertiserId: event.advertiserId,
          createdAt: isoText(event.at),
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
