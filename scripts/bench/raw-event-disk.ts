/**
 * node --import tsx scripts/bench/raw-event-disk.ts [--database-url <PostgreSQL server>] [--pageviews <1000000>]
 *   [--without-retention-indexes] [--prune]
 *
 * The disk the raw event rows take per million pageviews (docs/performance.md, "Raw events on disk"). In a
 * throw-away database of the server (migrated, dropped at the end), or an embedded PGlite database in a temporary
 * folder without `--database-url`, it writes a day of pageviews of the demo's traffic model through the server's
 * own batch writer (store.ts `writeBatch`, the stored function record_delivery_batch): each pageview with its
 * decision, a validated impression for 72% of desktop and 58% of mobile ones, a unique click for 1% of pageviews
 * (a lead for 8% of those), 3% bots set aside (their pageview, decision and invalid_traffic row), over 50
 * publishers, the day's minutes and 5,000 pages each. It prints each raw table's size (pg_total_relation_size:
 * rows, TOAST and indexes) before and after, the time per 1,000 pageviews written, and with `--prune` how long the
 * retention job takes to delete them all in its chunks. `--without-retention-indexes` drops migration 0019's
 * created_at indexes first, to see what they cost.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createThrowAwayDatabase, migrateDatabase, openDatabase } from '@helium/db';
import { DAY_MS, DEFAULT_TRAFFIC_MODEL, seededRandom, splitRevenue, type Device } from '@helium/domain';
import type { DeliveryEvent, EventMoney } from '../../apps/api/src/features/delivery/events.ts';
import { writeBatch } from '../../apps/api/src/features/delivery/store.ts';
import { newId } from '../../apps/api/src/features/delivery/tokens.ts';
import {
  pruneRawEvents,
  RETENTION_CHUNK_ROWS,
} from '../../apps/api/src/features/event-retention/raw-event-retention.ts';

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    pageviews: { type: 'string' },
    'without-retention-indexes': { type: 'boolean' },
    prune: { type: 'boolean' },
  },
});
const PAGEVIEWS = Number(values.pageviews ?? '1000000');
const PAGEVIEWS_PER_BATCH = 1_000;
const PUBLISHERS = 50;
const PAGES_PER_PUBLISHER = 5_000;
const CLICK_SHARE = 0.01;
const RAW_TABLES = [
  'pageviews',
  'ad_decisions',
  'ad_impressions',
  'ad_clicks',
  'ad_leads',
  'invalid_traffic',
  'realtime_counters',
];
const RETENTION_INDEXES = [
  'pageviews_created_idx',
  'ad_decisions_created_idx',
  'ad_impressions_created_idx',
  'ad_clicks_created_idx',
  'ad_leads_created_idx',
  'invalid_traffic_created_idx',
  'realtime_counters_minute_idx',
];

const dataDir = mkdtempSync(join(os.tmpdir(), 'helium-bench-raw-event-disk-'));
const throwAway = values['database-url']
  ? await createThrowAwayDatabase(values['database-url'], { prefix: 'bench_raw_event_disk' })
  : undefined;
const database = await openDatabase(throwAway ? { url: throwAway.url } : { pgliteDir: join(dataDir, 'db') });
const { db } = database;

const rowsOf = async <Row>(statement: ReturnType<typeof sql>) =>
  ((await db.execute(statement)) as unknown as { rows: Row[] }).rows;
const sizes = async () => {
  const rows = await rowsOf<{ name: string; total: string; indexes: string }>(sql`
    select c.relname as name, pg_total_relation_size(c.oid) as total, pg_indexes_size(c.oid) as indexes
    from pg_class c where c.relname in (${sql.join(
      RAW_TABLES.map((table) => sql`${table}`),
      sql`, `,
    )}) and c.relkind = 'r'`);
  return new Map(rows.map((row) => [row.name, { total: Number(row.total), indexes: Number(row.indexes) }]));
};
const counts = async () => {
  const result = new Map<string, number>();
  for (const table of RAW_TABLES) {
    const [row] = await rowsOf<{ n: string }>(sql`select count(*) as n from ${sql.identifier(table)}`);
    result.set(table, Number(row?.n ?? 0));
  }
  return result;
};

try {
  await migrateDatabase(database);
  if (values['without-retention-indexes']) {
    for (const index of RETENTION_INDEXES) await db.execute(sql`drop index ${sql.identifier(index)}`);
  }
  const before = await sizes();
  const random = seededRandom(20261127);
  const day = Date.parse('2026-11-26T00:00:00Z');
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const slugWords = ['velo', 'recette', 'jardin', 'voyage', 'cuisine', 'montagne', 'ete', 'hiver', 'guide', 'test'];
  const pages = Array.from({ length: PAGES_PER_PUBLISHER }, (_, page) => {
    const slug = Array.from({ length: 4 }, () => pick(slugWords)).join('-');
    return `/2026/11/${slug}-${page}`;
  });
  const moneyOf = (cost: number): EventMoney => {
    const split = splitRevenue({ cost, publisherShareBp: 7_000, salesRepShareBp: 0, salesReps: 0, isTrial: false });
    return {
      cost: split.advertiserCost,
      publisherRevenue: split.publisher,
      salesRepRevenue: split.salesRep,
      companyRevenue: split.company,
      trialCost: split.trialCost,
    };
  };

  let written = 0;
  let writeMs = 0;
  while (written < PAGEVIEWS) {
    const events: DeliveryEvent[] = [];
    const inBatch = Math.min(PAGEVIEWS_PER_BATCH, PAGEVIEWS - written);
    for (let index = 0; index < inBatch; index++) {
      // The day's pageviews in order, as the engine writes them.
      const at = new Date(day + Math.floor(((written + index) / PAGEVIEWS) * DAY_MS));
      const publisherId = 1 + Math.floor(random() * PUBLISHERS);
      const device: Device = random() < DEFAULT_TRAFFIC_MODEL.mobileShare ? 'mobile' : 'desktop';
      const url = `https://www.site-${publisherId}.example${pick(pages)}`;
      const visitor = randomBytes(17).toString('base64url').slice(0, 22);
      const ip = randomBytes(12).toString('base64url').slice(0, 16);
      const isBot = random() < DEFAULT_TRAFFIC_MODEL.botShare;
      const pageviewId = newId();
      const adId = 1 + Math.floor(random() * 40);
      const ref = { publisherId, adId, campaignId: adId, advertiserId: adId, channel: 'web' as const, device, url };
      const decisionId = newId();
      events.push(
        { t: 'pageview', id: pageviewId, publisherId, device, url, visitor, invalidReason: isBot ? 'bot' : null, at },
        { t: 'decision', ...ref, id: decisionId, pageviewId, slot: 0, visitor, ip, country: 'FR', at },
      );
      if (isBot) {
        events.push({
          t: 'invalid',
          kind: 'pageview',
          reason: 'bot',
          publisherId,
          adId: null,
          decisionId: null,
          visitor,
          userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
          device,
          at,
        });
        continue;
      }
      if (random() < DEFAULT_TRAFFIC_MODEL.viewRate[device]) {
        events.push({ t: 'impression', ...ref, decisionId, spendsCredit: true, money: moneyOf(2_000), at });
      }
      if (random() < CLICK_SHARE) {
        const clickId = newId();
        events.push({
          t: 'click',
          ...ref,
          id: clickId,
          decisionId,
          visitor,
          isUnique: true,
          spendsCredit: false,
          money: moneyOf(0),
          at,
        });
        if (random() < DEFAULT_TRAFFIC_MODEL.leadRate) events.push({ t: 'lead', ...ref, clickId, source: 'pixel', at });
      }
    }
    const started = performance.now();
    await writeBatch(database.executePrepared, events);
    writeMs += performance.now() - started;
    written += inBatch;
    if (written % 100_000 === 0) console.log(`  ${written.toLocaleString('en')} pageviews written`);
  }
  const after = await sizes();
  const rows = await counts();
  const perMillion = 1_000_000 / PAGEVIEWS;
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  console.log(
    `\n${PAGEVIEWS.toLocaleString('en')} pageviews, ${throwAway ? 'PostgreSQL' : 'PGlite'}, ${values['without-retention-indexes'] ? 'without' : 'with'} the created_at indexes`,
  );
  console.log('table              rows        MB (of which indexes)  per million pageviews');
  let total = 0;
  for (const table of RAW_TABLES) {
    const grown = after.get(table)!.total - before.get(table)!.total;
    const indexes = after.get(table)!.indexes - before.get(table)!.indexes;
    total += grown;
    console.log(
      `${table.padEnd(18)} ${String(rows.get(table)).padStart(9)}  ${mb(grown).padStart(8)} (${mb(indexes).padStart(7)})  ${mb(grown * perMillion).padStart(8)} MB`,
    );
  }
  console.log(
    `${'all raw tables'.padEnd(29)}${mb(total).padStart(8)}            ${mb(total * perMillion).padStart(8)} MB`,
  );
  console.log(`writing: ${((writeMs / PAGEVIEWS) * 1000).toFixed(1)} ms per 1,000 pageviews (batches of 1,000)`);
  if (values.prune) {
    const started = performance.now();
    const pruned = await pruneRawEvents(db, { now: new Date(day + 400 * DAY_MS), rawEventDays: 90 });
    const ms = performance.now() - started;
    const deleted = Object.values(pruned).reduce((sum, count) => sum + count, 0);
    const chunks = Object.values(pruned).reduce((sum, count) => sum + Math.floor(count / RETENTION_CHUNK_ROWS) + 1, 0);
    console.log(
      `pruning them all: ${deleted.toLocaleString('en')} rows in ${(ms / 1000).toFixed(1)} s, ` +
        `${Math.round(deleted / (ms / 1000)).toLocaleString('en')} rows/s, ${(ms / chunks).toFixed(0)} ms a chunk ` +
        `of ${RETENTION_CHUNK_ROWS.toLocaleString('en')} rows`,
    );
  }
} finally {
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  await throwAway?.drop();
}
