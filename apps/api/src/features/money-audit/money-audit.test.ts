import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@helium/db';
import { MONEY_AUDIT_CHECKS, MONEY_AUDIT_MAX_ROWS, type TMoneyAuditRun } from '@helium/contracts';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { publisherId } from '../../../test/serve-support.ts';

/*
 * The money audit (issue 32): clean on the demo data; then each invariant broken by hand in the database, one after
 * the other, is reported by `run-money-audit` with the rows involved, stored as the last run, and mailed to every
 * admin in their language. Only admins may run it or read it.
 */

let t: TestApp;
let admin: TestClient;
let blog: number;
const FRENCH_ADMIN = 'audit-fr@demo.test';

async function rows<Row>(statement: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await t.db.execute(statement)) as unknown as { rows: Row[] }).rows;
}

async function one<Row>(statement: ReturnType<typeof sql>): Promise<Row> {
  const [row] = await rows<Row>(statement);
  if (!row) throw new Error('no row');
  return row;
}

async function runAudit(): Promise<TMoneyAuditRun> {
  const response = await admin.post('/api/admin/run-money-audit');
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as TMoneyAuditRun;
}

const checkOf = (run: TMoneyAuditRun, name: string) => {
  const check = run.checks.find((candidate) => candidate.name === name);
  if (!check) throw new Error(`no check ${name}`);
  return check;
};

/** Runs the audit after breaking something: the check fails with the row, and both admins are mailed it. */
async function expectReported(name: string, row: Record<string, unknown>, mailed: string) {
  const mails = t.smtp.messages.length;
  const run = await runAudit();
  expect(run.ok).toBe(false);
  const check = checkOf(run, name);
  expect(check.ok).toBe(false);
  expect(check.count).toBeGreaterThanOrEqual(1);
  expect(check.rows).toContainEqual(expect.objectContaining(row));
  const english = await t.smtp.waitForMail('admin@demo.test', mails);
  expect(english.language).toBe('en');
  expect(english.subject).toMatch(/^Helium Ads: the money audit found \d+ broken invariants?$/);
  expect(english.text).toContain(`(${name})`);
  expect(english.text, english.text).toContain(mailed);
  expect(english.html).toContain(mailed);
  const french = await t.smtp.waitForMail(FRENCH_ADMIN, mails);
  expect(french.language).toBe('fr');
  expect(french.subject).toMatch(/^Helium Ads\u202f: l’audit de l’argent a trouvé \d+ invariants? rompus?$/);
  expect(french.text).toContain(mailed);
  return run;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
  blog = await publisherId(t.db, 'Demo Blog');
  // A second admin who reads French.
  await t.db
    .insert(users)
    .values({ name: 'Admin FR', email: FRENCH_ADMIN, locale: 'fr', isAdmin: true, currentType: 0 });
}, 60_000);
afterAll(async () => t?.close());

describe('run-money-audit and get-money-audit', () => {
  it('are refused to the signed out (401), publishers and advertisers (403), and store nothing', async () => {
    const publisher = t.client();
    await publisher.signIn('publisher@demo.test');
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    for (const path of ['/api/admin/run-money-audit', '/api/admin/get-money-audit']) {
      expect((await t.client().post(path)).statusCode).toBe(401);
      expect((await publisher.post(path)).statusCode).toBe(403);
      expect((await advertiser.post(path)).statusCode).toBe(403);
    }
    expect(await one<{ n: number }>(sql`select count(*)::int as n from money_audit_runs`)).toEqual({ n: 0 });
  });

  it('answer no last run before the first one', async () => {
    const response = await admin.post('/api/admin/get-money-audit');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ last: null });
  });

  it('find every invariant kept on the demo data, store the run, and mail nobody', async () => {
    const mails = t.smtp.messages.length;
    const run = await runAudit();
    expect(run.checks.map((check) => check.name)).toEqual([...MONEY_AUDIT_CHECKS]);
    expect(run.checks.filter((check) => !check.ok)).toEqual([]);
    expect(run.ok).toBe(true);
    expect(run.trigger).toBe('admin');
    expect(new Date(run.ranAt).getTime()).toBe(t.clock.now().getTime());
    const stored = (await admin.post('/api/admin/get-money-audit')).json() as { last: TMoneyAuditRun };
    expect(stored.last).toEqual(run);
    const [adminUser] = await rows<{ requested_by: number }>(sql`select requested_by from money_audit_runs`);
    const [adminId] = await rows<{ id: number }>(sql`select id from users where email = 'admin@demo.test'`);
    expect(adminUser!.requested_by).toBe(adminId!.id);
    // The demo's ledger and sales are really checked: there is something to check.
    const [counts] = await rows<{ days: number; entries: number; sales: number }>(sql`select
      (select count(distinct day) from daily_ad_stats)::int as days,
      (select count(*) from ledger_entries where kind = 'revenue')::int as entries,
      (select count(*) from sales)::int as sales`);
    expect(counts).toEqual({ days: expect.any(Number), entries: expect.any(Number), sales: 3 });
    expect(counts!.days).toBeGreaterThanOrEqual(30);
    expect(counts!.entries).toBeGreaterThanOrEqual(30);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.smtp.messages.slice(mails)).toEqual([]);
  });
});

describe('each invariant broken by hand is reported, with its rows, and mailed to the admins', () => {
  it('a day whose shares do not add up to what advertisers were charged', async () => {
    const row = await one<{ day: string; ad_id: number; publisher_id: number; device: string }>(sql`
      select day::text as day, ad_id, publisher_id, device from daily_ad_stats where cost > 0 order by day limit 1`);
    await t.db.execute(sql`update daily_ad_stats set company_revenue = company_revenue + 3
      where day = ${row.day} and ad_id = ${row.ad_id} and publisher_id = ${row.publisher_id} and device = ${row.device}`);
    const run = await expectReported('dailyRevenueSplit', { day: row.day, difference: -3 }, `day: ${row.day}`);
    expect(checkOf(run, 'dailyRevenueSplit').count).toBe(1);
    // Company revenue is not the publishers': the ledger still agrees.
    expect(checkOf(run, 'publisherRevenuePosted').ok).toBe(true);
  });

  it('a posted day whose publisher revenue changed afterwards, and a closed day with no entry', async () => {
    // Money moved from the company to the blog on a day already posted: the split holds, the ledger disagrees.
    const posted = await one<{ day: string; amount: string }>(sql`
      select day::text as day, amount from ledger_entries
      where account_type = 'publisher' and kind = 'revenue' and account_id = ${blog} order by day desc limit 1`);
    const stats = await one<{ ad_id: number; device: string }>(sql`
      select ad_id, device from daily_ad_stats where publisher_id = ${blog} and day = ${posted.day} and company_revenue >= 7
      order by ad_id limit 1`);
    await t.db.execute(sql`update daily_ad_stats set publisher_revenue = publisher_revenue + 7,
      company_revenue = company_revenue - 7
      where day = ${posted.day} and ad_id = ${stats.ad_id} and publisher_id = ${blog} and device = ${stats.device}`);
    const run = await expectReported(
      'publisherRevenuePosted',
      { publisherId: blog, day: posted.day, posted: Number(posted.amount), earned: Number(posted.amount) + 7 },
      `publisherId: ${blog}, day: ${posted.day}`,
    );
    // Only the break above: the split of that day still holds.
    expect(checkOf(run, 'dailyRevenueSplit').count).toBe(1);

    // A closed day's revenue with no entry (a publisher that earned and was never posted).
    const cuisine = await publisherId(t.db, 'Cuisine Facile');
    const day = await one<{ day: string; ad: number; campaign: number; advertiser: number }>(sql`
      select min(day)::text as day, min(ad_id) as ad, min(campaign_id) as campaign, min(advertiser_id) as advertiser
      from daily_ad_stats`);
    await t.db.execute(sql`insert into daily_ad_stats (day, ad_id, publisher_id, device, campaign_id, advertiser_id,
        channel, impressions, cost, publisher_revenue, company_revenue)
      values (${day.day}::date - 100, ${day.ad}, ${cuisine}, 'desktop', ${day.campaign}, ${day.advertiser}, 'web', 2,
        1000, 700, 300)`);
    const again = await runAudit();
    expect(checkOf(again, 'publisherRevenuePosted').rows).toContainEqual(
      expect.objectContaining({ publisherId: cuisine, posted: 0, earned: 700, impressions: 2, entries: 0 }),
    );
  });

  it("a posted day's revenue moved from one publisher to another, the day's total unchanged", async () => {
    const cuisine = await publisherId(t.db, 'Cuisine Facile');
    // The oldest day both earned on (the test above broke the newest one).
    const { day } = await one<{ day: string }>(sql`
      select min(day)::text as day from ledger_entries b
      where b.account_type = 'publisher' and b.kind = 'revenue' and b.account_id = ${blog} and b.amount > 10
        and exists (select 1 from ledger_entries c where c.account_type = 'publisher' and c.kind = 'revenue'
          and c.account_id = ${cuisine} and c.day = b.day)`);
    const move = async (publisher: number, amount: number) => {
      const row = await one<{ ad_id: number; device: string }>(sql`
        select ad_id, device from daily_ad_stats where publisher_id = ${publisher} and day = ${day}
          and publisher_revenue >= 10 and company_revenue >= 10 order by ad_id, device limit 1`);
      await t.db.execute(sql`update daily_ad_stats set publisher_revenue = publisher_revenue + ${amount},
        company_revenue = company_revenue - ${amount}
        where day = ${day} and ad_id = ${row.ad_id} and publisher_id = ${publisher} and device = ${row.device}`);
    };
    await move(blog, -5);
    await move(cuisine, 5);
    const run = await runAudit();
    const rows = checkOf(run, 'publisherRevenuePosted').rows.filter((row) => row.day === day);
    expect(rows.map((row) => [row.publisherId, Number(row.earned) - Number(row.posted)])).toEqual(
      [
        [blog, -5],
        [cuisine, 5],
      ].sort((a, b) => a[0]! - b[0]!),
    );
  });

  it("an account's stored balance that is not the sum of its ledger", async () => {
    const ledger = await one<{ total: string }>(sql`select sum(amount) as total from ledger_entries
      where account_type = 'publisher' and account_id = ${blog}`);
    await t.db.execute(sql`update ledger_balances set balance = balance + 1000000
      where account_type = 'publisher' and account_id = ${blog}`);
    await expectReported(
      'ledgerBalances',
      {
        accountType: 'publisher',
        accountId: blog,
        stored: Number(ledger.total) + 1_000_000,
        ledger: Number(ledger.total),
      },
      `accountId: ${blog}, stored: ${Number(ledger.total) + 1_000_000}`,
    );
  });

  it('a campaign whose remaining credits are not bought + granted - spent', async () => {
    const campaign = await one<{ id: number; remaining: number }>(sql`
      select id, remaining_impressions as remaining from campaigns where not is_cpc order by id limit 1`);
    await t.db.execute(
      sql`update campaigns set remaining_impressions = remaining_impressions + 100 where id = ${campaign.id}`,
    );
    await expectReported(
      'campaignCredits',
      { campaignId: campaign.id, remaining: Number(campaign.remaining) + 100 },
      `campaignId: ${campaign.id}`,
    );
  });

  it('a paid sale charged twice, and a paid sale never credited', async () => {
    const card = await one<{ id: number; advertiser_id: number; amount: string }>(
      sql`select id, advertiser_id, amount from sales where method = 'card' and state = 'paid' order by id limit 1`,
    );
    await t.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount, note)
      values ('advertiser', ${card.advertiser_id}, 'purchase', ${card.amount}, ${`card sale ${card.id}`})`);
    await expectReported(
      'salesCreditedOnce',
      { saleId: card.id, state: 'paid', creditEntries: 1, ledgerEntries: 2 },
      `saleId: ${card.id}`,
    );

    const uncredited = await one<{ id: number }>(sql`
      insert into sales (advertiser_id, campaign_id, method, state, quantity, is_cpc, full_price, amount, currency,
        amount_in_currency, paid_at)
      select advertiser_id, campaign_id, 'bitcoin', 'paid', 1000, false, 2500000, 2500000, 'btc', 30000, now()
      from sales where id = ${card.id}
      returning id`);
    const run = await runAudit();
    expect(checkOf(run, 'salesCreditedOnce').rows).toContainEqual(
      expect.objectContaining({ saleId: uncredited.id, creditEntries: 0, ledgerEntries: 0 }),
    );
  });

  it('a cancelled sale whose credits and money were never reversed', async () => {
    const invoice = await one<{ id: number }>(
      sql`select id from sales where method = 'invoice' and state = 'unpaid' order by id limit 1`,
    );
    await t.db.execute(sql`update sales set state = 'cancelled', cancelled_at = now() where id = ${invoice.id}`);
    await expectReported(
      'cancelledSalesReversed',
      { saleId: invoice.id, creditEntries: 1, cancellationEntries: 0, ledgerEntries: 1, reversals: 0 },
      `saleId: ${invoice.id}`,
    );
  });

  it('a coupon used by two credited sales of one advertiser', async () => {
    const coupon = await one<{ id: number }>(sql`select id from coupons where code = 'WELCOME10'`);
    const paid = await rows<{ id: number; advertiser_id: number }>(sql`
      select id, advertiser_id from sales where state = 'paid' and method in ('card', 'bitcoin') order by id limit 2`);
    await t.db.execute(sql`update sales set coupon_id = ${coupon.id}
      where id in (${paid[0]!.id}, ${paid[1]!.id})`);
    const run = await expectReported(
      'couponOncePerAdvertiser',
      {
        couponId: coupon.id,
        code: 'WELCOME10',
        advertiserId: paid[0]!.advertiser_id,
        sales: 2,
        saleIds: `${paid[0]!.id}, ${paid[1]!.id}`,
      },
      'code: WELCOME10',
    );
    // Every invariant broken above is still reported, and the last run is the one stored.
    expect(run.checks.filter((check) => check.ok)).toEqual([]);
    const stored = (await admin.post('/api/admin/get-money-audit')).json() as { last: TMoneyAuditRun };
    expect(stored.last).toEqual(run);
  });

  it('keeps at most 50 rows per check, and counts them all', async () => {
    const day = await one<{ day: string; ad: number; campaign: number; advertiser: number }>(sql`
      select min(day)::text as day, min(ad_id) as ad, min(campaign_id) as campaign, min(advertiser_id) as advertiser
      from daily_ad_stats`);
    // 60 days, each charged a micro-euro nobody got.
    await t.db.execute(sql`insert into daily_ad_stats (day, ad_id, publisher_id, device, campaign_id, advertiser_id,
        channel, cost)
      select ${day.day}::date - n, ${day.ad}, ${blog}, 'desktop', ${day.campaign}, ${day.advertiser}, 'web', 1
      from generate_series(1, 60) as n`);
    const run = await runAudit();
    const split = checkOf(run, 'dailyRevenueSplit');
    expect(split.count).toBe(61);
    expect(split.rows).toHaveLength(MONEY_AUDIT_MAX_ROWS);
    const mail = t.smtp.messages.findLast((message) => message.to.includes('admin@demo.test'))!;
    expect(mail.text).toContain('... and 41 more.');
  });
});
