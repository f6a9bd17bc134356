import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  adClicks,
  adDecisions,
  adImpressions,
  adLeads,
  campaigns,
  dailyAdStats,
  dailyPublisherStats,
  dailyUrlStats,
  installHeartbeats,
  invalidTraffic,
  owlIssueAds,
  pageviews,
  publishers,
  realtimeCounters,
  type Database,
} from '@helium/db';
import type { DeliveryEvent } from './events.ts';

/** An event about one ad shown on one publisher's page: what the per-ad daily summary is keyed by. */
type AdEvent = Extract<DeliveryEvent, { t: 'decision' | 'impression' | 'click' | 'lead' }>;
import { utcDay, utcMinute } from './visitor.ts';

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

type Conflict =
  | 'nothing'
  | null
  /** Upsert: adds the incoming counters to the stored ones, or replaces the given columns. */
  | { target: PgColumn[]; add?: PgColumn[]; replace?: PgColumn[] };

/** A numeric counter with a default: a row that does not name it adds 0 (a JSON null would break NOT NULL). */
function isCounter(column: PgColumn): boolean {
  return column.notNull && column.hasDefault && /^(smallint|integer|bigint)$/.test(column.getSQLType());
}

/**
 * The statement inserting rows with ONE parameter: `insert ... select from json_to_recordset($1)`. Columns are
 * those any row names (others take their defaults); dates go as ISO strings.
 */
function insertRows(table: PgTable, rows: object[], conflict: Conflict): SQL | null {
  if (rows.length === 0) return null;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(columns).filter((key) =>
    rows.some((row) => (row as Record<string, unknown>)[key] !== undefined),
  );
  const records = rows.map((row) => {
    const record: Record<string, unknown> = {};
    for (const key of keys) record[columns[key]!.name] = (row as Record<string, unknown>)[key] ?? null;
    return record;
  });
  const name = (column: PgColumn) => `"${column.name}"`;
  const list = keys.map((key) => name(columns[key]!)).join(', ');
  const select = keys
    .map((key) => (isCounter(columns[key]!) ? `coalesce(r.${name(columns[key]!)}, 0)` : `r.${name(columns[key]!)}`))
    .join(', ');
  const types = keys.map((key) => `${name(columns[key]!)} ${columns[key]!.getSQLType()}`).join(', ');
  let onConflict = '';
  if (conflict === 'nothing') onConflict = ' on conflict do nothing';
  else if (conflict) {
    const set = [
      ...(conflict.add ?? []).map((column) => `${name(column)} = t.${name(column)} + excluded.${name(column)}`),
      ...(conflict.replace ?? []).map((column) => `${name(column)} = excluded.${name(column)}`),
    ];
    onConflict = ` on conflict (${conflict.target.map(name).join(', ')}) do update set ${set.join(', ')}`;
  }
  return sql`insert into ${table} as t (${sql.raw(list)}) select ${sql.raw(select)} from json_to_recordset(${JSON.stringify(records)}::json) as r(${sql.raw(types)})${sql.raw(onConflict)}`;
}

/**
 * Writes one batch of events in one transaction: the raw records, then the realtime and daily counters and
 * the campaigns' remaining credits. The caller answers the requests of the batch only after this resolves.
 */
export async function writeBatch(db: Database, events: DeliveryEvent[]): Promise<void> {
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

  // The whole batch is ONE statement: each table's rows go as one JSON parameter (insertRows), which costs
  // far less per row than a VALUES list of one parameter per field, and the tables' statements are joined
  // as data-modifying WITH clauses, which PostgreSQL runs to completion, atomically, as one statement. So a
  // batch is one round trip and one commit instead of a transaction of a dozen statements; on PGlite each
  // statement also runs on the same thread as the HTTP server.
  const statements: Array<SQL | null> = [];
  statements.push(insertRows(pageviews, pageviewRows, 'nothing'));
  statements.push(insertRows(adDecisions, decisionRows, 'nothing'));
  statements.push(insertRows(adImpressions, impressionRows, 'nothing'));
  statements.push(insertRows(adClicks, clickRows, 'nothing'));
  statements.push(insertRows(adLeads, leadRows, 'nothing'));
  statements.push(insertRows(invalidTraffic, invalidRows, null));
  statements.push(insertRows(owlIssueAds, owlRows, 'nothing'));
  statements.push(
    insertRows(realtimeCounters, [...realtime.values()], {
      target: [realtimeCounters.publisherId, realtimeCounters.minute],
      add: [
        realtimeCounters.pageviewsDesktop,
        realtimeCounters.pageviewsMobile,
        realtimeCounters.impressionsDesktop,
        realtimeCounters.impressionsMobile,
      ],
    }),
  );
  statements.push(
    insertRows(dailyPublisherStats, [...daily.values()], {
      target: [dailyPublisherStats.day, dailyPublisherStats.publisherId, dailyPublisherStats.device],
      add: [
        dailyPublisherStats.pageviews,
        dailyPublisherStats.invalidPageviews,
        dailyPublisherStats.served,
        dailyPublisherStats.impressions,
        dailyPublisherStats.clicks,
      ],
    }),
  );
  statements.push(
    insertRows(dailyAdStats, [...adDaily.values()], {
      target: [dailyAdStats.day, dailyAdStats.adId, dailyAdStats.publisherId, dailyAdStats.device],
      add: [
        dailyAdStats.served,
        dailyAdStats.impressions,
        dailyAdStats.clicks,
        dailyAdStats.allClicks,
        dailyAdStats.leads,
        dailyAdStats.cost,
        dailyAdStats.publisherRevenue,
        dailyAdStats.salesRepRevenue,
        dailyAdStats.companyRevenue,
        dailyAdStats.trialCost,
      ],
    }),
  );
  statements.push(
    insertRows(dailyUrlStats, [...urlDaily.values()], {
      target: [
        dailyUrlStats.day,
        dailyUrlStats.publisherId,
        dailyUrlStats.url,
        dailyUrlStats.device,
        dailyUrlStats.adId,
      ],
      add: [
        dailyUrlStats.pageviews,
        dailyUrlStats.impressions,
        dailyUrlStats.clicks,
        dailyUrlStats.leads,
        dailyUrlStats.cost,
      ],
    }),
  );
  // Every campaign's credits in one statement; greatest(0, ...) keeps them from going below 0.
  const spent = [...new Set([...spentImpressions.keys(), ...spentClicks.keys()])].map((id) => ({
    id,
    impressions: spentImpressions.get(id) ?? 0,
    clicks: spentClicks.get(id) ?? 0,
  }));
  if (spent.length) {
    statements.push(sql`
        update ${campaigns} set
          remaining_impressions = greatest(0, ${campaigns}.remaining_impressions - spent.impressions),
          remaining_clicks = greatest(0, ${campaigns}.remaining_clicks - spent.clicks)
        from json_to_recordset(${JSON.stringify(spent)}::json) as spent(id integer, impressions integer, clicks integer)
        where ${campaigns}.id = spent.id`);
  }
  statements.push(
    insertRows(installHeartbeats, [...heartbeats.values()], {
      target: [installHeartbeats.publisherId, installHeartbeats.host],
      replace: [installHeartbeats.lastSeenAt],
    }),
  );
  if (installed.size) {
    statements.push(
      sql`update ${publishers} set is_installed = true where ${publishers.id} in (select value::int from json_array_elements_text(${JSON.stringify([...installed])}::json))`,
    );
  }
  const parts = statements.filter((statement): statement is SQL => statement !== null);
  if (parts.length === 0) return;
  if (parts.length === 1) {
    await db.execute(parts[0]!);
    return;
  }
  // with w0 as (insert ...), w1 as (update ...), ... select 1
  const clauses = parts.map((part, index) => sql`${sql.raw(`w${index}`)} as (${part})`);
  await db.execute(sql`with ${sql.join(clauses, sql`, `)} select 1`);
}
