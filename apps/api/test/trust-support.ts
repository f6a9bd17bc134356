import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '@helium/domain';
import { utcDay } from '../src/features/delivery/visitor.ts';
import type { TestApp } from './helper.ts';

/*
 * What the trust tests (serve-trust.test.ts, serve-set-asides.test.ts) check after an attack or a rule of it: what
 * a campaign is billed, in the summaries, the event rows and the engine's memory, on a clock kept within one day.
 */

/** A Chrome-like user agent, another build at each `index` (as the attack sent them). */
export const chromeLike = (index: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${100 + (index % 40)}.0.${index}.${index % 97} Safari/537.36`;

/** Waits until every event recorded so far and every set-aside queued so far are written. */
export async function written(app: TestApp) {
  await app.app.delivery.recorder.flush();
  await app.app.delivery.settle();
}

/**
 * Moves the clock to the next whole minute (the per-minute rule counts UTC minutes), and first to the next UTC day
 * when less than two hours of this one are left: an address set aside stays so for the rest of its day, so a
 * scenario must not cross midnight (the test clock starts at the real time, and CI may run at 23:50 UTC).
 */
export function toStartOfNextMinute(app: TestApp) {
  const leftToday = DAY_MS - (app.clock.now().getTime() % DAY_MS);
  if (leftToday < 2 * HOUR_MS) app.clock.advance(leftToday);
  const now = app.clock.now().getTime();
  app.clock.advance((MINUTE_MS - (now % MINUTE_MS)) % MINUTE_MS || MINUTE_MS);
}

/** The first row a raw SQL statement answers. */
export async function one<Row>(app: TestApp, statement: ReturnType<typeof sql>): Promise<Row> {
  const { rows } = (await app.db.execute(statement)) as unknown as { rows: Row[] };
  return rows[0]!;
}

/**
 * What a campaign is billed today, from the summaries (daily_ad_stats, daily_publisher_stats, daily_url_stats,
 * realtime_counters) and from the event rows not set aside, with its remaining credits in the database and in the
 * engine's memory.
 */
async function billingOf(app: TestApp, campaignId: number) {
  const day = utcDay(app.clock.now());
  const row = await one<Record<string, string | number>>(
    app,
    sql`select
      (select coalesce(sum(impressions), 0) from daily_ad_stats where campaign_id = ${campaignId} and day = ${day}) as impressions,
      (select coalesce(sum(clicks), 0) from daily_ad_stats where campaign_id = ${campaignId} and day = ${day}) as clicks,
      (select coalesce(sum(cost), 0) from daily_ad_stats where campaign_id = ${campaignId} and day = ${day}) as cost,
      (select coalesce(sum(publisher_revenue), 0) from daily_ad_stats where campaign_id = ${campaignId} and day = ${day}) as revenue,
      (select coalesce(sum(impressions), 0) from daily_url_stats where campaign_id = ${campaignId} and day = ${day}) as "urlImpressions",
      (select coalesce(sum(cost), 0) from daily_url_stats where campaign_id = ${campaignId} and day = ${day}) as "urlCost",
      (select count(*) from ad_impressions where campaign_id = ${campaignId} and invalid_reason is null
        and (created_at at time zone 'UTC')::date = ${day}) as "impressionRows",
      (select count(*) from ad_clicks where campaign_id = ${campaignId} and is_unique and invalid_reason is null
        and (created_at at time zone 'UTC')::date = ${day}) as "clickRows",
      (select coalesce(sum(cost), 0) from (
        select cost from ad_impressions where campaign_id = ${campaignId} and invalid_reason is null
          and (created_at at time zone 'UTC')::date = ${day}
        union all
        select cost from ad_clicks where campaign_id = ${campaignId} and invalid_reason is null
          and (created_at at time zone 'UTC')::date = ${day}) as billed) as "rowCost",
      (select remaining_impressions from campaigns where id = ${campaignId}) as "remainingImpressions",
      (select remaining_clicks from campaigns where id = ${campaignId}) as "remainingClicks"`,
  );
  const figures = Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as Record<
    | 'impressions'
    | 'clicks'
    | 'cost'
    | 'revenue'
    | 'urlImpressions'
    | 'urlCost'
    | 'impressionRows'
    | 'clickRows'
    | 'rowCost'
    | 'remainingImpressions'
    | 'remainingClicks',
    number
  >;
  const inMemory = app.app.delivery.state().credits;
  return {
    ...figures,
    memoryImpressions: inMemory.remainingImpressions(campaignId),
    memoryClicks: inMemory.remainingClicks(campaignId),
    todayInMemory: app.app.delivery.state().campaignToday.get(campaignId) ?? 0,
  };
}

/**
 * The trust tests' clock and billing figures, on the test file's own app (`current`) unless another is given:
 * `startOfNextMinute()`, `billing(campaignId)`.
 */
export function trustChecks(current: () => TestApp) {
  return {
    startOfNextMinute: (app: TestApp = current()) => toStartOfNextMinute(app),
    billing: (campaignId: number, app: TestApp = current()) => billingOf(app, campaignId),
  };
}

/** The summaries agree with the event rows that are billed, and the engine's memory with the database. */
export function expectConsistent(figures: Awaited<ReturnType<typeof billingOf>>) {
  expect(figures.impressions).toBe(figures.impressionRows);
  expect(figures.clicks).toBe(figures.clickRows);
  expect(figures.cost).toBe(figures.rowCost);
  expect(figures.urlImpressions).toBe(figures.impressionRows);
  expect(figures.urlCost).toBe(figures.rowCost);
  expect(figures.memoryImpressions).toBe(figures.remainingImpressions);
  expect(figures.memoryClicks).toBe(figures.remainingClicks);
  expect(figures.todayInMemory).toBe(figures.impressions);
}
