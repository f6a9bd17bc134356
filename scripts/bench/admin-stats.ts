/**
 * node --import tsx scripts/bench/admin-stats.ts [--publishers <1000>] [--days <365>] [--runs <10>] [--database-url <PostgreSQL server>]
 *
 * Admin Stats, the admin's home (issue 24): seeds a year of history for 1,000 publishers (daily ad, publisher and
 * URL summaries, the daily revenue ledger and the balances the database keeps with it) into an embedded PGlite
 * database in a temporary folder (or into a throw-away database of a PostgreSQL server), then times what
 * POST /api/admin/get-stats does once the gate has let the admin in: the service's queries, the check against the
 * contract's response schema and the JSON, without and with the most frequent URLs. BENCH_PROFILE=1 also times
 * each query alone and the service, schema check and JSON apart. Figures go to docs/performance.md by hand.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { desc, sql } from 'drizzle-orm';
import {
  ads,
  createThrowAwayDatabase,
  migrateDatabase,
  networkSettings,
  openDatabase,
  seedDemoData,
  users,
} from '@helium/db';
import { MONEY_AUDIT_CHECKS, ZAdminStatsSchema } from '@helium/contracts';
import { adminStats } from '../../apps/api/src/features/admin-stats/admin-stats.ts';
import { runCheck } from '../../apps/api/src/features/money-audit/checks.ts';
import { HashIds } from '../../apps/api/src/infra/hash-ids.ts';

const { values } = parseArgs({
  options: {
    publishers: { type: 'string' },
    days: { type: 'string' },
    runs: { type: 'string' },
    'database-url': { type: 'string' },
  },
});
const publisherCount = Number(values.publishers ?? '1000');
const days = Number(values.days ?? '365');
const runs = Number(values.runs ?? '10');
const log = (line: string) => console.log(line);

const dataDir = mkdtempSync(join(os.tmpdir(), 'helium-bench-admin-stats-'));
const throwAway = values['database-url']
  ? await createThrowAwayDatabase(values['database-url'], { prefix: 'bench_admin_stats' })
  : undefined;
const database = await openDatabase(throwAway ? { url: throwAway.url } : { pgliteDir: join(dataDir, 'db') });
await migrateDatabase(database);
await seedDemoData(database.db);
const { db } = database;

const now = new Date();
const firstDay = new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
const [owner] = await db.select().from(users).orderBy(users.id).limit(1);
const adIds = (await db.select({ id: ads.id }).from(ads).orderBy(ads.id).limit(6)).map((row) => row.id);
const [adA = 1, adB = 2, adC = 3, adOwl = 4] = adIds;

const started = performance.now();
const step = async (label: string, statement: ReturnType<typeof sql>) => {
  const t0 = performance.now();
  await db.execute(statement);
  log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
};
log(`seeding ${publisherCount} publishers x ${days} days (${throwAway ? 'PostgreSQL' : 'PGlite'})`);
await step(
  'publishers',
  sql`insert into publishers (user_id, brand, is_web, is_owl, is_installed, min_balance_for_payout)
      select ${owner!.id}, 'Bench ' || lpad(n::text, 4, '0'), true, n % 10 = 0, n % 7 <> 0, case when n % 3 = 0 then 20000000 end
      from generate_series(1, ${publisherCount}) as n`,
);
const benchPublishers = sql`(select id, row_number() over (order by id) as n from publishers where brand like 'Bench %')`;
const history = sql`generate_series(${firstDay}::date, ${now.toISOString().slice(0, 10)}::date - 1, '1 day') as d`;
await step(
  'daily_publisher_stats',
  sql`insert into daily_publisher_stats (day, publisher_id, device, pageviews, served, impressions, clicks)
      select d::date, p.id, dev, 2000 + p.n % 500, 3000, 1000 + (p.n * 37) % 900, 3 + p.n % 11
      from ${benchPublishers} p, ${history}, unnest(array['desktop', 'mobile']) as dev`,
);
await step(
  'daily_ad_stats',
  sql`insert into daily_ad_stats (day, ad_id, publisher_id, device, campaign_id, advertiser_id, channel, served,
        impressions, clicks, cost, publisher_revenue, sales_rep_revenue, company_revenue, trial_cost)
      select d::date, ad, p.id, dev, ad, ad, 'web', 1000, 400, 2, 1000000,
        700000, case when p.n % 4 = 0 then 100000 else 0 end, case when p.n % 4 = 0 then 200000 else 300000 end, 0
      from ${benchPublishers} p, ${history}, unnest(array['desktop', 'mobile']) as dev,
        unnest(array[${adA}::int, ${adB}::int, ${adC}::int]) as ad
      union all
      select d::date, ${adOwl}::int, p.id, 'desktop', 900000, 900000, 'owl', 0, 300, 1, 0, 210000, 0, 90000, 300000
      from ${benchPublishers} p, ${history} where p.n % 10 = 0`,
);
await step(
  'daily_url_stats',
  sql`insert into daily_url_stats (day, publisher_id, url, device, ad_id, pageviews, impressions, clicks)
      select d::date, p.id, 'https://bench' || p.n || '.test/page-' || u, dev, a, case when a = 0 then 700 - u * 100 else 0 end,
        case when a = 0 then 0 else 300 end, 0
      from ${benchPublishers} p, ${history}, unnest(array['desktop', 'mobile']) as dev, generate_series(1, 3) as u,
        unnest(array[0, ${adA}::int]) as a`,
);
// Each day's revenue entries as the daily ledger posts them (daily-ledger.ts), so that the money audit finds the
// history consistent.
await step(
  'ledger_entries',
  sql`insert into ledger_entries (account_type, account_id, kind, amount, day, impressions)
      select 'publisher', s.publisher_id, 'revenue', sum(s.publisher_revenue), s.day, sum(s.impressions)
      from daily_ad_stats s join ${benchPublishers} p on p.id = s.publisher_id
      group by s.publisher_id, s.day`,
);
await step('analyze', sql`analyze`);
log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);

const [settings] = await db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1);
const hashIds = new HashIds('bench-secret-'.padEnd(48, 'x'));
if (process.env.BENCH_PROFILE) {
  const lastDay = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
  const first = new Date(now.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
  const queries: Record<string, ReturnType<typeof sql>> = {
    ads: sql`select day, publisher_id, channel, sum(impressions), sum(clicks), sum(cost), sum(publisher_revenue), sum(sales_rep_revenue), sum(company_revenue), sum(trial_cost) from daily_ad_stats where day >= ${first} and day <= ${lastDay} group by 1, 2, 3`,
    traffic: sql`select publisher_id, device, sum(pageviews), sum(impressions), sum(clicks) from daily_publisher_stats where day >= ${first} and day <= ${lastDay} group by 1, 2`,
    balances: sql`select account_id, balance from ledger_balances where account_type = 'publisher'`,
    ledgerSum: sql`select account_id, sum(amount) from ledger_entries where account_type = 'publisher' group by 1`,
    publishers: sql`select * from publishers`,
    adsByDay: sql`select day, sum(cost), sum(publisher_revenue), sum(sales_rep_revenue), sum(company_revenue), sum(trial_cost) from daily_ad_stats where day >= ${first} and day <= ${lastDay} group by 1`,
    adsByPublisher: sql`select publisher_id, channel, sum(impressions), sum(clicks), sum(cost), sum(publisher_revenue) from daily_ad_stats where day >= ${first} and day <= ${lastDay} group by 1, 2`,
    adsCount: sql`select count(*) from daily_ad_stats where day >= ${first} and day <= ${lastDay}`,
    urls: sql`select publisher_id, device, url, sum(pageviews) filter (where ad_id = 0), sum(impressions) filter (where ad_id <> 0) from daily_url_stats where day >= ${first} and day <= ${lastDay} group by 1, 2, 3`,
  };
  for (const [name, statement] of Object.entries(queries)) {
    const t0 = performance.now();
    for (let i = 0; i < 3; i += 1) await db.execute(statement);
    log(`  ${name}: ${((performance.now() - t0) / 3).toFixed(0)} ms`);
  }
  // The money audit's checks read the whole history (run daily and on demand, not on this page): how long each takes.
  for (const name of MONEY_AUDIT_CHECKS) {
    const t0 = performance.now();
    const check = await runCheck(db, name);
    log(`  money audit ${name}: ${(performance.now() - t0).toFixed(0)} ms (${check.count} rows break it)`);
  }
  for (let i = 0; i < 3; i += 1) {
    const t0 = performance.now();
    const answer = await adminStats(db, {
      now,
      locale: 'en',
      settings: settings!,
      ctrThresholds: null,
      hashIds,
      withUrls: false,
    });
    const t1 = performance.now();
    const parsed = ZAdminStatsSchema.parse(answer);
    const t2 = performance.now();
    JSON.stringify(parsed);
    log(
      `  service ${(t1 - t0).toFixed(0)} ms, parse ${(t2 - t1).toFixed(0)} ms, json ${(performance.now() - t2).toFixed(0)} ms`,
    );
  }
}
/**
 * One call: its wall time, and its CPU time (this process's, main thread and PGlite's thread together: on a machine
 * shared with other work, wall time waits for the cores, CPU time much less).
 */
async function once(withUrls: boolean) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const answer = await adminStats(db, {
    now,
    locale: 'en',
    settings: settings!,
    ctrThresholds: null,
    hashIds,
    withUrls,
  });
  const body = JSON.stringify(ZAdminStatsSchema.parse(answer));
  const cpu = process.cpuUsage(cpu0);
  return {
    ms: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    bytes: body.length,
    publishers: answer.publishers.length,
  };
}
for (const withUrls of [false, true]) {
  await once(withUrls);
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let last = { ms: 0, cpuMs: 0, bytes: 0, publishers: 0 };
  for (let run = 0; run < runs; run += 1) {
    last = await once(withUrls);
    times.push(last.ms);
    cpuTimes.push(last.cpuMs);
  }
  const at = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!.toFixed(0);
  log(
    `get-stats${withUrls ? ' with URLs' : ''}: median ${at(times, 0.5)} ms, p90 ${at(times, 0.9)} ms, ` +
      `max ${at(times, 1)} ms; CPU median ${at(cpuTimes, 0.5)} ms, p90 ${at(cpuTimes, 0.9)} ms ` +
      `(${runs} runs; ${last.publishers} publishers, ${(last.bytes / 1024).toFixed(0)} KB of JSON)`,
  );
}

await database.close();
rmSync(dataDir, { recursive: true, force: true });
await throwAway?.drop();
