import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAdminStats, TMoneyAuditRun } from '@helium/contracts';
import { campaigns, publishers, users } from '@helium/db';
import { DAY_MS, microsToCentEuros } from '@helium/domain';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';
import {
  BOT_UA,
  campaignOfBrand,
  click,
  decide,
  publisherId,
  view,
  type Visitor,
} from '../../../test/serve-support.ts';
import { utcDay } from '../delivery/visitor.ts';
import { MONEY_AUDIT_JOB } from './money-audit.ts';

/*
 * The money audit on real activity (issue 32), and the balances the database keeps (issue 33, item 7): a UTC day of
 * serving traffic (web pages on desktop and mobile, newsletter opens, clicks, a bot; a trial campaign and a
 * publisher with a sales rep), a Bitcoin sale confirmed, an invoice issued then cancelled, payouts asked, returned,
 * asked again and paid. Then the day closes: the daily job posts the day's revenue and finds every invariant kept;
 * each account's kept balance is the sum of its ledger, as Accounting and Admin Stats show it.
 */

let t: TestApp;
let admin: TestClient;
let blog: number;
let cuisine: number;
let newsletterHash: string;
let trafficDay: string;

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

const runJob = () => t.app.ctx.scheduler.runNow(MONEY_AUDIT_JOB) as Promise<TMoneyAuditRun | null>;

/** Web pages on desktop and phones, newsletter opens and clicks, and a bot: what one day of visitors does. */
async function dayOfTraffic(): Promise<number> {
  let counted = 0;
  for (let index = 1; index <= 10; index++) {
    const desktop: Visitor = { ip: `81.60.7.${index}` };
    const { ads } = await decide(t, index % 2 ? blog : cuisine, desktop);
    for (const ad of ads) if ((await view(t, ad.view, desktop)).headers['x-helium-counted'] === 'counted') counted++;
    if (index % 3 === 0 && ads[0]) await click(t, ads[0].click, desktop);

    const phone: Visitor = { ip: `82.60.7.${index}`, ua: IPHONE_UA };
    const phoneAds = (await decide(t, index % 2 ? cuisine : blog, phone)).ads;
    for (const ad of phoneAds) if ((await view(t, ad.view, phone)).headers['x-helium-counted'] === 'counted') counted++;
    if (index % 4 === 0 && phoneAds[0]) await click(t, phoneAds[0].click, phone);

    const reader = { 'user-agent': IPHONE_UA, 'x-forwarded-for': `83.60.7.${index}` };
    const opened = await t.app.inject({
      method: 'GET',
      url: `/serve/owl/${newsletterHash}/1/issue-${index % 3}/image`,
      remoteAddress: '127.0.0.1',
      headers: reader,
    });
    if (opened.headers['x-helium-counted'] === 'counted') counted++;
    if (index % 5 === 0) {
      await t.app.inject({
        method: 'GET',
        url: `/serve/owl/${newsletterHash}/1/issue-${index % 3}/click`,
        remoteAddress: '127.0.0.1',
        headers: reader,
      });
    }
    t.clock.advance(7 * 60_000);
  }
  const bot: Visitor = { ip: '84.60.7.250', ua: BOT_UA };
  for (const ad of (await decide(t, blog, bot)).ads) await view(t, ad.view, bot);
  await t.app.delivery.recorder.flush();
  return counted;
}

/** Sales of the day: a Bitcoin purchase confirmed, an invoice issued then cancelled. */
async function salesOfTheDay() {
  const advertiser = t.client();
  await advertiser.signIn('advertiser@demo.test');
  const [campaign] = await rows<{ id: number }>(sql`
    select c.id from campaigns c join advertisers a on a.id = c.advertiser_id
    where a.brand = 'Nordvik Outdoor' order by c.id limit 1`);
  const bitcoin = await advertiser.post('/api/advertiser/buy-with-bitcoin', {
    campaignExId: campaign!.id,
    buyImpressions: 100_000,
  });
  expect(bitcoin.statusCode, bitcoin.body).toBe(200);
  const confirmed = await admin.post('/api/admin/update-sale', { saleId: bitcoin.json().saleId, action: 'confirm' });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  await advertiser.post('/api/advertiser/update-buy', {
    supercampaign: { id: campaign!.id, buy_impressions: 500_000 },
  });
  const invoice = await advertiser.post('/api/advertiser/buy-with-bill-to-pay', {
    campaignExId: campaign!.id,
    currency: 'eur',
  });
  expect(invoice.statusCode, invoice.body).toBe(200);
  const cancelled = await admin.post('/api/admin/update-sale', { saleId: invoice.json().saleId, action: 'cancel' });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
}

/** Payouts of the day: the blog asks, the money comes back, it asks again and is paid. */
async function payoutsOfTheDay() {
  const publisher = await signedInPublisher(t, blog);
  const asked = await publisher.post('/api/publisher/request-payout', { method: 'paypal', currency: 'eur' });
  expect(asked.statusCode, asked.body).toBe(200);
  const returned = await admin.post('/api/admin/update-payout', {
    payoutId: asked.json().payoutId,
    action: 'returned',
    reason: 'Account closed',
  });
  expect(returned.statusCode, returned.body).toBe(200);
  const again = await publisher.post('/api/publisher/request-payout', { method: 'paypal', currency: 'eur' });
  expect(again.statusCode, again.body).toBe(200);
  const paid = await admin.post('/api/admin/update-payout', {
    payoutId: again.json().payoutId,
    action: 'paid',
    reference: 'PP-0001',
  });
  expect(paid.statusCode, paid.body).toBe(200);
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
  blog = await publisherId(t.db, 'Demo Blog');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  newsletterHash = t.app.ctx.hashIds.encodePublisher(await publisherId(t.db, 'La Lettre Tech'));
  // A sales rep on the blog and a campaign on trial credits: every share of the split is in play.
  const [adminUser] = await t.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
  await t.db.update(publishers).set({ salesRepUserId: adminUser!.id }).where(eq(publishers.id, blog));
  const trial = await campaignOfBrand(t.db, 'atelier-ceramique.example');
  await t.db.update(campaigns).set({ isTrial: true }).where(eq(campaigns.id, trial));
  await t.app.delivery.refresh();

  moveTo(1, 9);
  trafficDay = utcDay(t.clock.now());
  expect(await dayOfTraffic()).toBeGreaterThan(10);
  await salesOfTheDay();
  await payoutsOfTheDay();
  await t.app.delivery.settle();
  // The day closes (00:05 UTC): its revenue may be posted.
  moveTo(1, 0, 6);
}, 180_000);
afterAll(async () => t?.close());

describe('the daily money audit after a day of traffic, sales and payouts', () => {
  it('posts the closed day first, then finds every invariant kept; once a day', async () => {
    const run = await runJob();
    expect(run).not.toBeNull();
    expect(run!.checks.filter((check) => !check.ok)).toEqual([]);
    expect(run!.ok).toBe(true);
    expect(run!.trigger).toBe('schedule');
    // The day of traffic was posted by the daily ledger before the audit read it.
    const posted = await rows<{ account_id: number }>(sql`
      select account_id from ledger_entries where kind = 'revenue' and day = ${trafficDay} order by account_id`);
    expect(posted.map((row) => row.account_id)).toEqual(expect.arrayContaining([blog, cuisine]));
    // The day's activity is in what was checked.
    const [day] = await rows<{ cost: string; trial: string; reps: string }>(sql`
      select sum(cost)::bigint as cost, sum(trial_cost)::bigint as trial, sum(sales_rep_revenue)::bigint as reps
      from daily_ad_stats where day = ${trafficDay}`);
    for (const part of ['cost', 'trial', 'reps'] as const) expect(Number(day![part]), part).toBeGreaterThan(0);
    const [sold] = await rows<{ confirmed: number; cancelled: number }>(sql`select
      count(*) filter (where method = 'bitcoin' and state = 'paid')::int as confirmed,
      count(*) filter (where state = 'cancelled')::int as cancelled from sales`);
    expect(sold).toEqual({ confirmed: 2, cancelled: 1 });

    // Not again the same day, whoever asks; the next day, again.
    expect(await runJob()).toBeNull();
    t.clock.advance(6 * 60 * 60_000);
    expect(await runJob()).toBeNull();
    moveTo(1, 0, 10);
    const next = await runJob();
    expect(next?.ok).toBe(true);
    expect(new Date(next!.ranAt).getTime()).toBe(t.clock.now().getTime());
    const scheduled = await rows<{ n: number }>(
      sql`select count(*)::int as n from money_audit_runs where trigger = 'schedule'`,
    );
    expect(scheduled[0]!.n).toBe(2);
  });

  it("keeps each account's balance equal to the sum of its ledger, as Accounting and Admin Stats show it", async () => {
    const mismatched = await rows(sql`
      select coalesce(b.account_type, l.account_type) as account_type, coalesce(b.account_id, l.account_id) as account_id,
        b.balance, l.total
      from ledger_balances b
      full join (select account_type, account_id, sum(amount) as total from ledger_entries group by 1, 2) l
        on l.account_type = b.account_type and l.account_id = b.account_id
      where b.balance is distinct from l.total`);
    expect(mismatched).toEqual([]);
    // The blog's ledger moved every way today: revenue, a payout returned, a payout paid.
    const kinds = await rows<{ kind: string }>(sql`select distinct kind from ledger_entries
      where account_type = 'publisher' and account_id = ${blog} and created_at >= ${`${trafficDay}T00:00:00Z`}::timestamptz
      order by kind`);
    expect(kinds.map((row) => row.kind)).toEqual(['payout', 'payoutReturned', 'revenue']);

    const ledger = await rows<{ account_id: number; total: string }>(sql`
      select account_id, sum(amount)::bigint as total from ledger_entries where account_type = 'publisher'
      group by account_id`);
    const totalOf = new Map(ledger.map((row) => [Number(row.account_id), Number(row.total)]));
    const stats = (await admin.post('/api/admin/get-stats', {})).json() as TAdminStats;
    for (const publisher of stats.publishers) {
      expect(publisher.balance, publisher.brand).toBe(microsToCentEuros(totalOf.get(publisher.id) ?? 0));
    }
    const publisher = await signedInPublisher(t, blog);
    const accounting = (await publisher.post('/api/publisher/get-accounting', {})).json() as { balance: number };
    expect(accounting.balance).toBeCloseTo(totalOf.get(blog)! / 1e6, 6);
    // Paid out today: the blog's balance is what it earned since, the posted day's revenue.
    const [revenue] = await rows<{ amount: string }>(sql`select amount from ledger_entries
      where account_type = 'publisher' and account_id = ${blog} and kind = 'revenue' and day = ${trafficDay}`);
    expect(totalOf.get(blog)).toBe(Number(revenue!.amount));
  });
});
