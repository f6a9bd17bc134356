import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../src/client.ts';
import { seedDemoData } from '../src/seed/index.ts';
import { createThrowAwayDatabase, type ThrowAwayDatabase } from '../src/throw-away-database.ts';

/*
 * set_aside_traffic (migration 0009): what an address counted before a rule set it aside leaves the summaries and
 * gives its credits back, each event once, however many calls name it at once; a day whose publisher revenue is
 * posted is not touched. On the embedded database, and on PostgreSQL (where the calls really run at once, on a
 * pool's connections) when TEST_DATABASE_URL is set.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const drivers = [
  { name: 'PGlite', url: null as string | null },
  ...(adminUrl ? [{ name: 'PostgreSQL', url: adminUrl }] : []),
];

// A day of no seeded history (the seed fills the 30 days before today).
const DAY = '2030-01-15';
const AT = `${DAY}T10:15:30Z`;
const MINUTE = `${DAY}T10:15:00Z`;

describe.each(drivers)('set_aside_traffic on $name', ({ url: serverUrl }) => {
  let handle: DatabaseHandle;
  let throwAway: ThrowAwayDatabase | undefined;
  let ids: { publisher: number; ad: number; campaign: number; advertiser: number };

  async function rows<Row>(statement: ReturnType<typeof sql>): Promise<Row[]> {
    return ((await handle.db.execute(statement)) as unknown as { rows: Row[] }).rows;
  }

  async function setAside(impressions: string[], clicks: string[] = []): Promise<Array<{ kind: string }>> {
    const [row] = await rows<{ reversed: unknown }>(
      sql`select set_aside_traffic(${JSON.stringify(impressions)}::json, ${JSON.stringify(clicks)}::json, 'ipVisitors', now()) as reversed`,
    );
    const answer = row!.reversed;
    return (typeof answer === 'string' ? JSON.parse(answer) : answer) as Array<{ kind: string }>;
  }

  /** The figures the events below make, as the summaries and the campaign hold them. */
  async function figures() {
    const [row] = await rows<Record<string, string | number>>(sql`select
      (select coalesce(sum(impressions), 0) from daily_ad_stats where day = ${DAY} and ad_id = ${ids.ad}) as impressions,
      (select coalesce(sum(clicks), 0) from daily_ad_stats where day = ${DAY} and ad_id = ${ids.ad}) as clicks,
      (select coalesce(sum(cost), 0) from daily_ad_stats where day = ${DAY} and ad_id = ${ids.ad}) as cost,
      (select coalesce(sum(publisher_revenue), 0) from daily_ad_stats where day = ${DAY} and ad_id = ${ids.ad}) as revenue,
      (select coalesce(sum(impressions), 0) from daily_publisher_stats where day = ${DAY} and publisher_id = ${ids.publisher}) as "publisherImpressions",
      (select coalesce(sum(impressions), 0) from daily_url_stats where day = ${DAY} and ad_id = ${ids.ad}) as "urlImpressions",
      (select coalesce(sum(impressions_desktop), 0) from realtime_counters where publisher_id = ${ids.publisher} and minute = ${MINUTE}::timestamptz) as realtime,
      (select remaining_impressions from campaigns where id = ${ids.campaign}) as remaining,
      (select count(*) from invalid_traffic where reason = 'ipVisitors' and publisher_id = ${ids.publisher}) as aside,
      (select count(*) from ad_impressions where invalid_reason is not null and ad_id = ${ids.ad}) as marked`);
    return Object.fromEntries(Object.entries(row!).map(([key, value]) => [key, Number(value)]));
  }

  beforeAll(async () => {
    if (serverUrl) {
      throwAway = await createThrowAwayDatabase(serverUrl, { prefix: 'helium_setaside' });
      handle = await openDatabase({ url: throwAway.url });
    } else {
      handle = await openDatabase();
    }
    await migrateDatabase(handle);
    await seedDemoData(handle.db);
    const [found] = await rows<{ publisher: number; ad: number; campaign: number; advertiser: number }>(sql`
      select p.id as publisher, a.id as ad, c.id as campaign, c.advertiser_id as advertiser
      from publishers p, ads a join campaigns c on c.id = a.campaign_id
      where p.brand = 'Demo Blog' and not c.is_cpc order by a.id limit 1`);
    ids = found!;
    await handle.db.execute(sql`update campaigns set remaining_impressions = 100 where id = ${ids.campaign}`);
    // Four counted impressions of one page (as record_delivery_batch writes them), 1,000 micro-euros each.
    for (const id of ['d1', 'd2', 'd3', 'd4']) {
      await handle.db
        .execute(sql`insert into ad_decisions (id, publisher_id, ad_id, campaign_id, channel, device, url, visitor, created_at)
        values (${id}, ${ids.publisher}, ${ids.ad}, ${ids.campaign}, 'web', 'desktop', 'http://localhost/p', ${`visitor-${id}`}, ${AT}::timestamptz)`);
      await handle.db
        .execute(sql`insert into ad_impressions (decision_id, publisher_id, ad_id, campaign_id, device, cost, publisher_revenue, company_revenue, created_at)
        values (${id}, ${ids.publisher}, ${ids.ad}, ${ids.campaign}, 'desktop', 1000, 700, 300, ${AT}::timestamptz)`);
    }
    await handle.db
      .execute(sql`insert into daily_ad_stats (day, ad_id, publisher_id, device, campaign_id, advertiser_id, channel, impressions, cost, publisher_revenue, company_revenue)
      values (${DAY}, ${ids.ad}, ${ids.publisher}, 'desktop', ${ids.campaign}, ${ids.advertiser}, 'web', 4, 4000, 2800, 1200)`);
    await handle.db.execute(sql`insert into daily_publisher_stats (day, publisher_id, device, pageviews, impressions)
      values (${DAY}, ${ids.publisher}, 'desktop', 4, 4)`);
    await handle.db
      .execute(sql`insert into daily_url_stats (day, publisher_id, url, device, ad_id, campaign_id, impressions, cost)
      values (${DAY}, ${ids.publisher}, 'http://localhost/p', 'desktop', ${ids.ad}, ${ids.campaign}, 4, 4000)`);
    await handle.db.execute(sql`insert into realtime_counters (publisher_id, minute, impressions_desktop)
      values (${ids.publisher}, ${MINUTE}::timestamptz, 4)`);
  }, 60_000);

  afterAll(async () => {
    await handle?.close();
    await throwAway?.drop();
  });

  it('reverses each event once when several calls name it at once, and keeps its row with the reason', async () => {
    const answers = await Promise.all([
      setAside(['d1', 'd2']),
      setAside(['d2', 'd3']),
      setAside(['d1', 'd3']),
      setAside(['d3', 'd1', 'd2']),
      setAside(['unknown-id']),
    ]);
    expect(answers.flat()).toHaveLength(3);
    expect(await figures()).toEqual({
      impressions: 1,
      clicks: 0,
      cost: 1000,
      revenue: 700,
      publisherImpressions: 1,
      urlImpressions: 1,
      realtime: 1,
      remaining: 103,
      aside: 3,
      marked: 3,
    });
    // Again: nothing more.
    expect(await setAside(['d1', 'd2', 'd3'])).toEqual([]);
    expect((await figures()).remaining).toBe(103);
  });

  it('touches nothing of a day whose publisher revenue the daily ledger has posted', async () => {
    await handle.db.execute(sql`insert into ledger_entries (account_type, account_id, kind, amount, day, impressions)
      values ('publisher', ${ids.publisher}, 'revenue', 700, ${DAY}, 1)`);
    expect(await setAside(['d4'])).toEqual([]);
    expect((await figures()).impressions).toBe(1);
  });
});
