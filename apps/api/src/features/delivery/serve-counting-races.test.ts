import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ads, campaigns } from '@helium/db';
import { MIN_VIEW_MS } from '@helium/domain';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import type { CreditBook } from './credits.ts';
import { utcDay } from './visitor.ts';
import {
  BROWSER_UA,
  budgetForOneMoreClick,
  campaignImpressionsToday,
  click,
  decide,
  onlyCampaign,
  pageHeadersOf,
  showOneAdOnly,
  view,
  blogAndTwoCampaigns,
} from '../../../test/serve-support.ts';

/*
 * What is counted while something else happens in the engine: a view or a lead being written when the sweep
 * forgets old state, a batch that fails, today's counters reloaded while events wait to be written. Each bills
 * once, and the figures of the database agree with the event rows.
 */

let t: TestApp;
let blog: number;
let bikes: number;
let bikesAd: number;
let ceramics: number;

beforeAll(async () => {
  t = await buildTestApp();
  ({ blog, bikes, ceramics } = await blogAndTwoCampaigns(t.db));
  bikesAd = await showOneAdOnly(t.db, bikes);
});
afterAll(async () => t.close());

/** Holds the recorder (as an index reload does, between two batches) until the returned function is called. */
async function holdRecorder(): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = t.app.delivery.recorder.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
  // The job starts on the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  return async () => {
    release();
    await held;
  };
}

/** Resolves once `condition` holds (checked every 5 ms): a loaded machine makes a fixed sleep too short. */
async function until(condition: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !condition();) {
    if (Date.now() - started > 10_000) throw new Error(`still not ${what} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The raw rows and the daily figures of a campaign, and its remaining credits. */
async function figures(campaignId: number) {
  const { rows } = (await t.db.execute(sql`select
      (select count(*)::int from ad_impressions where campaign_id = ${campaignId}) as "impressionRows",
      (select count(*)::int from ad_leads where campaign_id = ${campaignId}) as "leadRows",
      (select coalesce(sum(impressions), 0)::int from daily_ad_stats where campaign_id = ${campaignId}) as impressions,
      (select coalesce(sum(leads), 0)::int from daily_ad_stats where campaign_id = ${campaignId}) as leads,
      (select coalesce(sum(cost), 0)::bigint from daily_ad_stats where campaign_id = ${campaignId}) as cost,
      (select remaining_impressions from campaigns where id = ${campaignId}) as "remainingImpressions"`)) as unknown as {
    rows: Array<Record<string, number | string>>;
  };
  const row = rows[0]!;
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
}

/** A database failure on the next rows inserted into `table`, until the returned function is called. */
async function failInserts(table: 'ad_clicks' | 'ad_impressions'): Promise<() => Promise<void>> {
  await t.db.execute(
    sql.raw(`create or replace function helium_test_fail() returns trigger language plpgsql as $$
      begin raise exception 'test: the disk is full'; end $$`),
  );
  await t.db.execute(
    sql.raw(
      `create trigger helium_test_fail before insert on ${table} for each row execute function helium_test_fail()`,
    ),
  );
  return async () => {
    await t.db.execute(sql.raw(`drop trigger helium_test_fail on ${table}`));
  };
}

describe('a count being written', () => {
  it('a view beacon replayed while the first is written, once its decision left memory, bills once', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.90.0.1', userAgent: BROWSER_UA };
    const { ads: served } = await decide(t, blog, visitor);
    const token = served[0]!.view;
    const before = await figures(bikes);
    const release = await holdRecorder();
    // Just before the decision's reservation would end: its view is counted, and waits to be written.
    t.clock.advance(119_000);
    const decisions = (t.app.delivery.parts.decisions as unknown as { decisions: Map<string, { writing?: number }> })
      .decisions;
    const first = t.app.delivery.view(token, visitor, pageHeadersOf(t, blog));
    await until(() => [...decisions.values()].some((decision) => decision.writing), 'waiting to be written');
    // The sweep forgets decisions older than 2 minutes; the same beacon comes again (a replay, a second tab).
    t.clock.advance(2_000);
    t.app.delivery.sweep();
    const replay = t.app.delivery.view(token, visitor, pageHeadersOf(t, blog));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await release();
    expect([await first, await replay]).toEqual(['counted', 'ignored']);
    const after = await figures(bikes);
    expect(after.impressionRows).toBe(before.impressionRows! + 1);
    expect(after.impressions).toBe(before.impressions! + 1);
    expect(after.remainingImpressions).toBe(before.remainingImpressions! - 1);
    const [row] = await t.db
      .select({ cost: sql<number>`cost::bigint` })
      .from(sql`ad_impressions`)
      .where(sql`campaign_id = ${bikes}`)
      .orderBy(sql`created_at desc`)
      .limit(1);
    expect(after.cost).toBe(before.cost! + Number(row!.cost));
  });

  it('keeps a decision in memory for a minute after its view was written, against a slower read of the same token', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.90.0.2', userAgent: BROWSER_UA };
    const { ads: served } = await decide(t, blog, visitor);
    const decisions = (t.app.delivery.parts.decisions as unknown as { decisions: Map<string, unknown> }).decisions;
    const decisionId = [...decisions.keys()].at(-1)!;
    t.clock.advance(119_000);
    expect(await t.app.delivery.view(served[0]!.view, visitor, pageHeadersOf(t, blog))).toBe('counted');
    // Past its 2 minutes, the sweep keeps it while the minute after its view lasts, then forgets it.
    t.clock.advance(30_000);
    t.app.delivery.sweep();
    expect(decisions.has(decisionId)).toBe(true);
    t.clock.advance(31_000);
    t.app.delivery.sweep();
    expect(decisions.has(decisionId)).toBe(false);
    // Read back from the database: used.
    expect(await t.app.delivery.view(served[0]!.view, visitor, pageHeadersOf(t, blog))).toBe('ignored');
  });

  it('a lead reported again while the first is written counts once, though the sweep emptied the leads seen', async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const visitor = { ip: '10.90.1.1' };
    const { ads: served } = await decide(t, blog, visitor);
    const clicked = await click(t, served[0]!.click, visitor);
    expect(clicked.headers['x-helium-counted']).toBe('unique');
    const clickId = new URL(String(clicked.headers.location)).searchParams.get('hclid')!;
    await t.app.delivery.recorder.flush();
    const before = await figures(ceramics);
    const release = await holdRecorder();
    const leads = t.app.delivery.parts.leads as unknown as {
      seen: Set<string>;
      writing: Set<string>;
      beingRead: number;
    };
    const first = t.app.delivery.lead(clickId, 'pixel');
    await until(() => leads.writing.size === 1 && leads.beingRead === 0, 'waiting to be written');
    // The engine keeps at most 100,000 reported click ids in memory; past that the sweep empties them.
    const seen = leads.seen;
    for (let index = 0; index <= 100_000; index += 1) seen.add(`filler-${index}`);
    t.app.delivery.sweep();
    expect(seen.size).toBe(0);
    const again = t.app.delivery.lead(clickId, 'postback');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await release();
    expect([await first, await again]).toEqual([true, false]);
    const after = await figures(ceramics);
    expect(after.leadRows).toBe(before.leadRows! + 1);
    expect(after.leads).toBe(before.leads! + 1);
  });

  it('the sweep keeps the leads seen while a lead is being read, and empties them once none is', async () => {
    await onlyCampaign(t, ceramics, { clicks: 10 });
    const visitor = { ip: '10.90.1.2' };
    const { ads: served } = await decide(t, blog, visitor);
    const clicked = await click(t, served[0]!.click, visitor);
    const clickId = new URL(String(clicked.headers.location)).searchParams.get('hclid')!;
    await t.app.delivery.recorder.flush();
    // The lead's reads wait behind a transaction holding the click and lead tables (on either database).
    let release!: () => void;
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table ad_clicks, ad_leads in access exclusive mode`);
      locked();
      await new Promise<void>((resolve) => (release = resolve));
    });
    await isLocked;
    const lead = t.app.delivery.lead(clickId, 'pixel');
    const leads = t.app.delivery.parts.leads as unknown as { seen: Set<string>; beingRead: number };
    const seen = leads.seen;
    let sizeAfterSweep: number;
    try {
      await until(() => leads.beingRead === 1, 'being read');
      for (let index = 0; index <= 100_000; index += 1) seen.add(`filler-${index}`);
      const sizeBeforeSweep = seen.size;
      t.app.delivery.sweep();
      sizeAfterSweep = seen.size;
      expect(sizeBeforeSweep).toBeGreaterThan(100_000);
    } finally {
      release();
      await holding;
    }
    // Kept while the lead was read: emptied then, the lead's read of a second report could count it again.
    expect(sizeAfterSweep).toBeGreaterThan(100_000);
    expect(await lead).toBe(true);
    t.app.delivery.sweep();
    expect(seen.size).toBe(0);
  });
});

describe('a batch that fails', () => {
  it("a click whose batch failed leaves the ad's budget as it was", async () => {
    const cpc = 400_000;
    await t.db.update(campaigns).set({ isCpc: true, cpc }).where(eq(campaigns.id, bikes));
    await onlyCampaign(t, bikes, { clicks: 10 });
    await budgetForOneMoreClick(t, bikesAd, cpc);
    try {
      const first = { ip: '10.91.0.1' };
      const second = { ip: '10.91.0.2' };
      const { ads: firstAds } = await decide(t, blog, first);
      const { ads: secondAds } = await decide(t, blog, second);
      const restore = await failInserts('ad_clicks');
      let failed;
      try {
        failed = await click(t, firstAds[0]!.click, first);
      } finally {
        await restore();
      }
      expect(failed.statusCode).toBe(500);
      // Nothing was written: the budget still has room for the second visitor's click.
      const billed = await click(t, secondAds[0]!.click, second);
      expect(billed.statusCode).toBe(302);
      expect(billed.headers['x-helium-counted']).toBe('unique');
      const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
      expect(campaign?.remainingClicks).toBe(9);
    } finally {
      await t.db.update(ads).set({ budget: 0 }).where(eq(ads.id, bikesAd));
      await t.db.update(campaigns).set({ isCpc: false }).where(eq(campaigns.id, bikes));
      await t.app.delivery.refresh();
    }
  });
});

/**
 * The next batch is written, then fails as node-postgres reports a connection cut while the COMMIT's answer was on its
 * way, and the database cannot be asked whether it was written (batch-outcome.ts: it did not answer in time).
 */
function cutAfterNextCommit(): void {
  const recorder = t.app.delivery.recorder as unknown as { write: (events: unknown[]) => Promise<void> };
  const write = recorder.write;
  recorder.write = async (events) => {
    recorder.write = write;
    await write(events);
    throw new Error('Connection terminated unexpectedly');
  };
}

describe('a batch cut off mid-commit, written, its outcome never learnt by the server', () => {
  it('a view: not acknowledged, and its beacon sent again is not counted a second time', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const visitor = { ip: '10.91.1.1' };
    const { ads: served } = await decide(t, blog, visitor);
    await t.app.delivery.recorder.flush();
    const before = await figures(bikes);
    cutAfterNextCommit();
    const cut = await view(t, served[0]!.view, visitor);
    expect(cut.headers['x-helium-counted']).toBe('ignored');
    const again = await view(t, served[0]!.view, visitor, 0);
    expect(again.headers['x-helium-counted']).toBe('ignored');
    const after = await figures(bikes);
    expect(after.impressionRows).toBe(before.impressionRows! + 1);
    expect(after.impressions).toBe(before.impressions! + 1);
    expect(after.remainingImpressions).toBe(before.remainingImpressions! - 1);
    // Meanwhile no ad is promised; the next pageview's batch, written, says the database is back.
    expect((await decide(t, blog, { ip: '10.91.1.3' })).ads).toEqual([]);
    await t.app.delivery.recorder.flush();
    expect((await decide(t, blog, { ip: '10.91.1.4' })).ads).toHaveLength(1);
  });

  it("a unique click: the visitor's next click within the hour is a repeat, billed once in all", async () => {
    const cpc = 400_000;
    await t.db.update(campaigns).set({ isCpc: true, cpc }).where(eq(campaigns.id, bikes));
    await onlyCampaign(t, bikes, { clicks: 10 });
    try {
      const visitor = { ip: '10.91.1.2' };
      const { ads: served } = await decide(t, blog, visitor);
      await t.app.delivery.recorder.flush();
      cutAfterNextCommit();
      // The visitor still reaches the ad's page; the click is not acknowledged.
      const cut = await click(t, served[0]!.click, visitor);
      expect(cut.statusCode).toBe(302);
      expect(cut.headers['x-helium-counted']).toBe('ignored');
      await decide(t, blog, { ip: '10.91.1.5' });
      await t.app.delivery.recorder.flush();
      const again = await click(t, served[0]!.click, visitor);
      expect(again.headers['x-helium-counted']).toBe('repeat');
      const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, bikes));
      expect(campaign?.remainingClicks).toBe(9);
    } finally {
      await t.db.update(campaigns).set({ isCpc: false }).where(eq(campaigns.id, bikes));
      await t.app.delivery.refresh();
    }
  });
});

describe("today's counters reloaded", () => {
  it('keep the impressions waiting to be written: the AutoFlow daily cap still holds', async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const today = () => campaignImpressionsToday(t, bikes);
    const delivered = await today();
    await t.db
      .update(campaigns)
      .set({ pauseDailyImpressions: delivered + 2 })
      .where(eq(campaigns.id, bikes));
    await t.app.delivery.refresh();
    try {
      const first = { ip: '10.92.0.1' };
      const second = { ip: '10.92.0.2' };
      const { ads: firstAds } = await decide(t, blog, first);
      const { ads: secondAds } = await decide(t, blog, second);
      expect([firstAds.length, secondAds.length]).toEqual([1, 1]);
      // The advertiser lowers the cap to one more; today's counters are read again from the database while the
      // first view waits to be written.
      await t.db
        .update(campaigns)
        .set({ pauseDailyImpressions: delivered + 1 })
        .where(eq(campaigns.id, bikes));
      const reload = t.app.delivery.refresh({ counters: true });
      const firstView = view(t, firstAds[0]!.view, first);
      await reload;
      expect((await firstView).headers['x-helium-counted']).toBe('counted');
      const secondView = await view(t, secondAds[0]!.view, second);
      expect(secondView.headers['x-helium-counted']).toBe('invalid');
      expect(await today()).toBe(delivered + 1);
    } finally {
      await t.db.update(campaigns).set({ pauseDailyImpressions: 0 }).where(eq(campaigns.id, bikes));
      await t.app.delivery.refresh();
    }
  });
});

describe('the index reloaded while views are written', () => {
  it('lets batches through while it reads the index', async () => {
    await onlyCampaign(t, bikes, { impressions: 100 });
    const visitor = { ip: '10.93.0.1' };
    const { ads: served } = await decide(t, blog, visitor);
    expect(served).toHaveLength(1);
    // The database thread busy for a moment: the reload's first read waits behind it, and so will the view's batch.
    const busy = t.db.execute(sql`select pg_sleep(0.3)`);
    const order: string[] = [];
    const reload = t.app.delivery.refresh().then(() => order.push('reload'));
    const counted = view(t, served[0]!.view, visitor).then((response) => {
      order.push('view');
      return response.headers['x-helium-counted'];
    });
    await Promise.all([busy, reload]);
    expect(await counted).toBe('counted');
    // Held until the whole index was read again, the view would come after the reload.
    expect(order).toEqual(['view', 'reload']);
  });

  it('reads the credits between two batches: those in memory stay those stored', async () => {
    await onlyCampaign(t, bikes, { impressions: 200 });
    const billing = t.app.delivery.parts.billing as unknown as { credits: CreditBook };
    // Views sent at each moment of a reload (after 0 to 23 turns of the event loop): a batch written between its
    // read of the credits and their use would leave more credits in memory than stored.
    for (let turns = 0; turns < 24; turns++) {
      const visitors = Array.from({ length: 3 }, (_, index) => ({ ip: `10.93.${turns}.${index + 1}` }));
      const served = await Promise.all(visitors.map((visitor) => decide(t, blog, visitor)));
      t.clock.advance(MIN_VIEW_MS.video);
      const reload = t.app.delivery.refresh();
      for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
      const answers = await Promise.all(served.map(({ ads: [ad] }, index) => view(t, ad!.view, visitors[index]!, 0)));
      await reload;
      expect(answers.map((answer) => answer.headers['x-helium-counted'])).toEqual(visitors.map(() => 'counted'));
      const { remainingImpressions } = await figures(bikes);
      expect(remainingImpressions).toBe(200 - 3 * (turns + 1));
      expect(billing.credits.remainingImpressions(bikes)).toBe(remainingImpressions);
    }
  });
});

describe('midnight while a view is written', () => {
  it("the view counts on its own day: the new day's AutoFlow cap starts from zero", async () => {
    await onlyCampaign(t, bikes, { impressions: 1000 });
    const now = t.clock.now();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    t.clock.advance(midnight - now.getTime() - 3_000);
    const lastVisitor = { ip: '10.93.0.1' };
    const { ads: lastAds } = await decide(t, blog, lastVisitor);
    expect(lastAds).toHaveLength(1);
    const release = await holdRecorder();
    // Today's counters are read again (a new day) before the view counted at 23:59:59 is written.
    const reload = t.app.delivery.refresh({ counters: true });
    const lastView = view(t, lastAds[0]!.view, lastVisitor);
    while (t.app.delivery.recorder.pending === 0) await new Promise((resolve) => setImmediate(resolve));
    t.clock.advance(2_000);
    await release();
    await reload;
    expect((await lastView).headers['x-helium-counted']).toBe('counted');

    // The new day's cap is one impression: the view of 23:59:59 is yesterday's, so today's first ad still shows.
    await t.db.update(campaigns).set({ pauseDailyImpressions: 1 }).where(eq(campaigns.id, bikes));
    await t.app.delivery.refresh();
    try {
      expect(await campaignImpressionsToday(t, bikes)).toBe(0);
      const first = { ip: '10.93.0.2' };
      const { ads: firstAds } = await decide(t, blog, first);
      expect(firstAds).toHaveLength(1);
      expect((await view(t, firstAds[0]!.view, first)).headers['x-helium-counted']).toBe('counted');
      const { ads: secondAds } = await decide(t, blog, { ip: '10.93.0.3' });
      expect(secondAds).toHaveLength(0);
      expect(await campaignImpressionsToday(t, bikes)).toBe(1);
    } finally {
      await t.db.update(campaigns).set({ pauseDailyImpressions: 0 }).where(eq(campaigns.id, bikes));
      await t.app.delivery.refresh();
    }
  });
});

describe("today's counters read while a request rolls to the next day", () => {
  it("keep the new day's counters: the day never goes back, and the earlier day's figures are not taken", async () => {
    const counters = t.app.delivery as unknown as { loadCounters(always: boolean, now: Date): Promise<void> };
    const pacing = t.app.delivery.parts.billing.pacing;
    const engine = {
      get today() {
        return pacing.today;
      },
      loadCounters: (at: Date) => counters.loadCounters(true, at),
      rollDay: (at: Date) => pacing.rollDay(utcDay(at)),
    };
    const now = t.clock.now();
    const day = utcDay(now);
    expect(engine.today).toBe(day);
    // The database has impressions today: the figures a reload of today reads are not empty.
    expect(await campaignImpressionsToday(t, bikes)).toBeGreaterThan(0);
    const nextMidnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    // A reload of today's counters starts; while the database answers, a request after midnight rolls the day.
    const reading = engine.loadCounters(now);
    engine.rollDay(new Date(nextMidnight + 1_000));
    await reading;
    expect(engine.today).toBe(utcDay(new Date(nextMidnight + 1_000)));
    expect(t.app.delivery.state().campaignToday.size).toBe(0);
    expect(t.app.delivery.state().displayToday.size).toBe(0);
    // A reload that read the clock before midnight comes too late: nothing goes back to the earlier day.
    await engine.loadCounters(now);
    expect(engine.today).toBe(utcDay(new Date(nextMidnight + 1_000)));
    expect(t.app.delivery.state().campaignToday.size).toBe(0);
    t.clock.advance(nextMidnight + 1_000 - now.getTime());
  });
});
