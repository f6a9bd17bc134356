import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionAnswer } from '@helium/contracts/serving';
import { campaigns, publishers, users } from '@helium/db';
import { DAY_MS } from '@helium/domain';
import { buildTestApp, signedInPublisher, type TestApp } from '../../../test/helper.ts';
import {
  BOT_UA,
  campaignOfBrand,
  click,
  decide,
  publisherId,
  siteOrigin,
  view,
  type Visitor,
} from '../../../test/serve-support.ts';
import { utcDay } from '../delivery/visitor.ts';
import { DAILY_LEDGER_JOB, DailyRevenueLedger } from './daily-ledger.ts';

/*
 * The ledger's identities (docs/decisions.md sections 3 and 6; packages/domain/src/revenue.ts), over several UTC days
 * of real serving traffic (web pages on desktop and mobile, newsletter opens, clicks, a bot; a trial campaign and a
 * publisher with a sales rep):
 *
 * - one revenue entry per publisher per closed UTC day, the sum of that day's `daily_ad_stats.publisher_revenue`
 *   (and impressions), and a second run posts nothing;
 * - for every day, what the advertisers' deliveries cost is split without a micro-euro lost or made:
 *   sum(cost + trial_cost) = sum(publisher_revenue + sales_rep_revenue + company_revenue). `cost` is what the
 *   advertiser is charged (0 for trial credits, whose whole cost is `trial_cost`, carried by the company), so the
 *   identity holds per event (splitRevenue: publisher + sales reps + company = the cost, trial or not), per day in
 *   the event tables (billed impressions and clicks: not set aside) and in the daily summaries;
 * - a publisher's balance is the sum of its ledger entries, as Accounting shows it.
 */

let t: TestApp;
let blog: number;
let cuisine: number;
let newsletter: number;
let newsletterHash: string;
let trialCampaign: number;
const trafficDays: string[] = [];

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

async function rows<Row>(statement: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await t.db.execute(statement)) as unknown as { rows: Row[] }).rows;
}

/** Moves the clock to `hour`:`minute` UTC on the day `days` after the clock's current day. */
function moveTo(days: number, hour: number, minute = 0) {
  const now = t.clock.now().getTime();
  const target = Math.floor(now / DAY_MS) * DAY_MS + days * DAY_MS + (hour * 60 + minute) * 60_000;
  t.clock.advance(target - now);
}

/** The script's decision request from a phone (a narrow viewport, a phone's user agent). */
async function decideOnPhone(publisher: number, visitor: Visitor) {
  const page = `${siteOrigin(t, publisher)}/article`;
  const response = await t.app.inject({
    method: 'GET',
    url: `/serve/d?p=${publisher}&w=390&u=${encodeURIComponent(page)}`,
    remoteAddress: '127.0.0.1',
    headers: { 'user-agent': IPHONE_UA, 'x-forwarded-for': visitor.ip, origin: new URL(page).origin },
  });
  await t.app.delivery.recorder.flush();
  return (response.json() as DecisionAnswer).ads;
}

function owl(issue: string, kind: 'image' | 'click', visitor: Visitor) {
  return t.app.inject({
    method: 'GET',
    url: `/serve/owl/${newsletterHash}/1/${issue}/${kind}`,
    remoteAddress: '127.0.0.1',
    headers: { 'user-agent': IPHONE_UA, 'x-forwarded-for': visitor.ip },
  });
}

/** One UTC day of traffic, from 09:00: web pages on both devices, newsletter opens, clicks, a bot. */
async function dayOfTraffic(dayIndex: number) {
  let counted = 0;
  for (let index = 1; index <= 12; index++) {
    const desktop: Visitor = { ip: `81.${40 + dayIndex}.7.${index}` };
    const { ads } = await decide(t, index % 2 ? blog : cuisine, desktop);
    for (const ad of ads) {
      if ((await view(t, ad.view, desktop)).headers['x-helium-counted'] === 'counted') counted++;
    }
    if (index % 3 === 0 && ads[0]) await click(t, ads[0].click, desktop);

    const phone: Visitor = { ip: `82.${40 + dayIndex}.7.${index}`, ua: IPHONE_UA };
    const phoneAds = await decideOnPhone(index % 2 ? cuisine : blog, phone);
    for (const ad of phoneAds) {
      if ((await view(t, ad.view, phone)).headers['x-helium-counted'] === 'counted') counted++;
    }
    if (index % 4 === 0 && phoneAds[0]) await click(t, phoneAds[0].click, phone);

    const reader: Visitor = { ip: `83.${40 + dayIndex}.7.${index}` };
    const issue = `issue-${dayIndex}-${index % 3}`;
    if ((await owl(issue, 'image', reader)).headers['x-helium-counted'] === 'counted') counted++;
    if (index % 5 === 0) await owl(issue, 'click', reader);
    t.clock.advance(7 * 60_000);
  }
  // A bot's view counts nothing.
  const bot: Visitor = { ip: `84.${40 + dayIndex}.7.250`, ua: BOT_UA };
  const botAds = (await decide(t, blog, bot)).ads;
  for (const ad of botAds) expect((await view(t, ad.view, bot)).headers['x-helium-counted']).not.toBe('counted');
  await t.app.delivery.recorder.flush();
  return counted;
}

const runLedger = () =>
  t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB) as Promise<{ posted: number; closedBefore: string }>;

async function revenueEntryCount() {
  const [row] = await rows<{ n: number }>(
    sql`select count(*)::int as n from ledger_entries where account_type = 'publisher' and kind = 'revenue'`,
  );
  return Number(row!.n);
}

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  newsletter = await publisherId(t.db, 'La Lettre Tech');
  newsletterHash = t.app.ctx.hashIds.encodePublisher(newsletter);
  // A sales rep on Demo Blog, and one campaign on trial credits, so that every part of the split is in play.
  const [admin] = await t.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
  await t.db.update(publishers).set({ salesRepUserId: admin!.id }).where(eq(publishers.id, blog));
  trialCampaign = await campaignOfBrand(t.db, 'atelier-ceramique.example');
  await t.db.update(campaigns).set({ isTrial: true }).where(eq(campaigns.id, trialCampaign));
  await t.app.delivery.refresh();

  // Three UTC days of traffic from tomorrow, then the day after the last one, past its closing minutes.
  for (let dayIndex = 0; dayIndex < 3; dayIndex++) {
    moveTo(1, 9);
    trafficDays.push(utcDay(t.clock.now()));
    expect(await dayOfTraffic(dayIndex)).toBeGreaterThan(10);
  }
  await t.app.delivery.settle();
  moveTo(1, 0, 6);
}, 120_000);
afterAll(async () => t?.close());

describe('the ledger over several days of traffic', () => {
  it('posts one revenue entry per publisher per closed day, the sum of its publisher revenue; a second run none', async () => {
    const before = await revenueEntryCount();
    const first = await runLedger();
    expect(first.closedBefore).toBe(utcDay(t.clock.now()));
    // The three days of traffic, for the blog, the recipe site and the newsletter (at least).
    expect(first.posted).toBeGreaterThanOrEqual(9);
    expect(await revenueEntryCount()).toBe(before + first.posted);

    const days = await rows<{ publisher_id: number; day: string; revenue: string; impressions: string }>(sql`
      select publisher_id, day::text as day, sum(publisher_revenue)::bigint as revenue, sum(impressions)::bigint as impressions
      from daily_ad_stats where day < ${first.closedBefore}::date
      group by publisher_id, day
      having sum(publisher_revenue) <> 0 or sum(impressions) > 0`);
    const entries = await rows<{ account_id: number; day: string; amount: string; impressions: number; n: number }>(sql`
      select account_id, day::text as day, sum(amount)::bigint as amount, sum(impressions)::int as impressions,
        count(*)::int as n
      from ledger_entries where account_type = 'publisher' and kind = 'revenue'
      group by account_id, day`);
    expect(entries.filter((entry) => Number(entry.n) !== 1)).toEqual([]);
    const byKey = new Map(entries.map((entry) => [`${entry.account_id}|${entry.day}`, entry]));
    expect(entries).toHaveLength(days.length);
    for (const day of days) {
      const entry = byKey.get(`${day.publisher_id}|${day.day}`);
      expect(entry, `${day.publisher_id} ${day.day}`).toBeDefined();
      expect(Number(entry!.amount)).toBe(Number(day.revenue));
      expect(Number(entry!.impressions)).toBe(Number(day.impressions));
    }
    for (const day of trafficDays) {
      for (const publisher of [blog, cuisine, newsletter]) {
        expect(Number(byKey.get(`${publisher}|${day}`)?.amount ?? 0), `${publisher} ${day}`).toBeGreaterThan(0);
      }
    }

    // Again, from this process and from another: nothing more.
    expect((await runLedger()).posted).toBe(0);
    expect((await new DailyRevenueLedger(t.db, t.clock).run()).posted).toBe(0);
    expect(await revenueEntryCount()).toBe(before + first.posted);
  });

  it('splits every day of the events to the micro-euro: cost + trial cost = publisher + sales reps + company', async () => {
    const perDay = await rows<{
      day: string;
      charged: string;
      trial: string;
      publisher: string;
      reps: string;
      company: string;
      events: number;
    }>(sql`
      select (e.created_at at time zone 'UTC')::date::text as day,
        sum(e.cost)::bigint as charged, sum(e.trial_cost)::bigint as trial,
        sum(e.publisher_revenue)::bigint as publisher, sum(e.sales_rep_revenue)::bigint as reps,
        sum(e.company_revenue)::bigint as company, count(*)::int as events
      from (
        select created_at, cost, trial_cost, publisher_revenue, sales_rep_revenue, company_revenue
        from ad_impressions where invalid_reason is null
        union all
        select created_at, cost, trial_cost, publisher_revenue, sales_rep_revenue, company_revenue
        from ad_clicks where is_unique and invalid_reason is null
      ) e
      group by 1 order by 1`);
    expect(perDay.map((day) => day.day)).toEqual(trafficDays);
    for (const day of perDay) {
      expect(Number(day.charged) + Number(day.trial), day.day).toBe(
        Number(day.publisher) + Number(day.reps) + Number(day.company),
      );
      // Every part of the split was in play that day.
      expect(Number(day.trial), day.day).toBeGreaterThan(0);
      expect(Number(day.reps), day.day).toBeGreaterThan(0);
      expect(Number(day.charged), day.day).toBeGreaterThan(0);
    }
    // Per event too, and repeat clicks are free.
    const [unbalanced] = await rows<{ n: number }>(sql`
      select count(*)::int as n from (
        select cost, trial_cost, publisher_revenue, sales_rep_revenue, company_revenue from ad_impressions
        union all
        select cost, trial_cost, publisher_revenue, sales_rep_revenue, company_revenue from ad_clicks
      ) e
      where e.cost + e.trial_cost <> e.publisher_revenue + e.sales_rep_revenue + e.company_revenue
        or (e.cost > 0 and e.trial_cost > 0)`);
    expect(Number(unbalanced!.n)).toBe(0);
    const [repeat] = await rows<{ money: string }>(sql`
      select coalesce(sum(cost + trial_cost + publisher_revenue), 0)::bigint as money from ad_clicks where not is_unique`);
    expect(Number(repeat!.money)).toBe(0);

    // The daily summaries hold the same money for these days...
    const summaries = await rows<{
      day: string;
      charged: string;
      trial: string;
      publisher: string;
      reps: string;
      company: string;
    }>(sql`
      select day::text as day, sum(cost)::bigint as charged, sum(trial_cost)::bigint as trial,
        sum(publisher_revenue)::bigint as publisher, sum(sales_rep_revenue)::bigint as reps,
        sum(company_revenue)::bigint as company
      from daily_ad_stats group by day order by day`);
    const summaryOf = new Map(summaries.map((day) => [day.day, day]));
    for (const day of perDay) {
      const summary = summaryOf.get(day.day);
      for (const part of ['charged', 'trial', 'publisher', 'reps', 'company'] as const) {
        expect(Number(summary?.[part]), `${day.day} ${part}`).toBe(Number(day[part]));
      }
    }
    // ...and the identity holds on every day of them, the demo history's included.
    expect(summaries.length).toBeGreaterThanOrEqual(30 + trafficDays.length);
    for (const day of summaries) {
      expect(Number(day.charged) + Number(day.trial), day.day).toBe(
        Number(day.publisher) + Number(day.reps) + Number(day.company),
      );
    }
  });

  it("makes each publisher's balance the sum of its entries, as Accounting shows it", async () => {
    const closedBefore = utcDay(t.clock.now());
    for (const [publisher, email] of [
      [blog, 'publisher@demo.test'],
      [newsletter, 'publisher@demo.test'],
      [cuisine, 'multi@demo.test'],
    ] as const) {
      const [ledger] = await rows<{ balance: string; revenue: string; other: string }>(sql`
        select coalesce(sum(amount), 0)::bigint as balance,
          coalesce(sum(amount) filter (where kind = 'revenue'), 0)::bigint as revenue,
          coalesce(sum(amount) filter (where kind <> 'revenue'), 0)::bigint as other
        from ledger_entries where account_type = 'publisher' and account_id = ${publisher}`);
      const [earned] = await rows<{ revenue: string }>(sql`
        select coalesce(sum(publisher_revenue), 0)::bigint as revenue from daily_ad_stats
        where publisher_id = ${publisher} and day < ${closedBefore}::date`);
      // Every closed day's revenue is in the ledger, and the balance is the sum of all the entries.
      expect(Number(ledger!.revenue)).toBe(Number(earned!.revenue));
      expect(Number(ledger!.balance)).toBe(Number(earned!.revenue) + Number(ledger!.other));

      const client = await signedInPublisher(t, publisher, email);
      const accounting = await client.post('/api/publisher/get-accounting', {});
      expect(accounting.statusCode, accounting.body).toBe(200);
      const shown = accounting.json() as { balance: number; totalRevenues: number };
      expect(shown.balance).toBeCloseTo(Number(ledger!.balance) / 1e6, 6);
      expect(shown.totalRevenues).toBeCloseTo(Number(ledger!.revenue) / 1e6, 6);
      const stats = await client.post('/api/publisher/get-stats', {});
      expect((stats.json() as { totalRevenues: number }).totalRevenues).toBe(shown.totalRevenues);
    }
  });
});
