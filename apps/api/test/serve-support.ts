import type { DecisionAnswer } from '@helium/contracts/serving';
import { and, eq, ne, sql } from 'drizzle-orm';
import {
  adClicks,
  adImpressions,
  ads,
  campaigns,
  dailyAdStats,
  dailyPublisherStats,
  invalidTraffic,
  publishers,
  type Database,
} from '@helium/db';
import { MIN_VIEW_MS } from '@helium/domain';
import { utcDay } from '../src/features/delivery/visitor.ts';
import type { TestApp } from './helper.ts';

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export interface Visitor {
  ip: string;
  ua?: string;
}

export async function publisherId(db: Database, brand: string): Promise<number> {
  const [row] = await db.select({ id: publishers.id }).from(publishers).where(eq(publishers.brand, brand));
  if (!row) throw new Error(`no publisher ${brand}`);
  return row.id;
}

export type { ServedAd as ServedAdJson } from '@helium/contracts/serving';

/** The fields of a signed token's payload: kind, decision id, expiry, publisher, ad, device (tokens.ts). */
export function tokenFields(token: string): string[] {
  return Buffer.from(token.split('.')[0]!, 'base64url').toString().split('|');
}

/** The decision a served ad's view token names. */
export function decisionIdOf(ad: { view: string }): string {
  return tokenFields(ad.view)[1]!;
}

/**
 * The origin of a page of the publisher's registered domain (publishers.domain), as a browser on its site sends it
 * in `Origin`: `http://localhost:8080` for the demo blog (registered on `localhost`), else `https://<domain>`.
 * Decisions and views without a browser's evidence of a page of that domain count nothing (docs/server-behaviour.md).
 */
export function siteOrigin(t: TestApp, publisher: number): string {
  const domain = t.app.delivery.state().index.publishers.get(publisher)?.domain ?? 'localhost';
  return domain === 'localhost' ? 'http://localhost:8080' : `https://${domain}`;
}

/**
 * The script's decision request, as a browser on the publisher's site sends it through a proxy: by default from
 * an article of its registered domain. `origin` defaults to the page's; give it for a page address that is not
 * one, or '' for none.
 */
export async function decide(
  t: TestApp,
  publisher: number,
  visitor: Visitor,
  page = `${siteOrigin(t, publisher)}/article`,
  origin = new URL(page).origin,
) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/serve/d?p=${publisher}&w=1280&u=${encodeURIComponent(page)}`,
    remoteAddress: '127.0.0.1',
    headers: { 'user-agent': visitor.ua ?? BROWSER_UA, 'x-forwarded-for': visitor.ip, ...(origin ? { origin } : {}) },
  });
  // The decision is answered before its records are durable (served, not billed): wait for them, so that
  // the tests may read them.
  await t.app.delivery.recorder.flush();
  return { response, ads: (response.json() as DecisionAnswer).ads };
}

/** The Origin and Referer a browser sends with the script's requests from a page of the publisher's site. */
export function pageHeadersOf(t: TestApp, publisher: number) {
  const origin = siteOrigin(t, publisher);
  return { origin, referer: `${origin}/` };
}

/**
 * The script's view beacon, as `navigator.sendBeacon` sends it from the page of its decision (with the page's
 * Origin and Referer, unless `headers` says otherwise). It comes at the earliest 1 s after its decision (2 s for a
 * video, MIN_VIEW_MS): the clock moves on by `after` first (by default the longest of the two), as a visitor's
 * second in view would.
 */
export async function view(
  t: TestApp,
  token: string,
  visitor: Visitor,
  after: number = MIN_VIEW_MS.video,
  headers: Record<string, string> = pageHeadersOf(t, Number(tokenFields(token)[3])),
) {
  t.clock.advance(after);
  return t.app.inject({
    method: 'POST',
    url: '/serve/v',
    remoteAddress: '127.0.0.1',
    headers: {
      'user-agent': visitor.ua ?? BROWSER_UA,
      'x-forwarded-for': visitor.ip,
      'content-type': 'text/plain',
      ...headers,
    },
    payload: token,
  });
}

export async function click(t: TestApp, clickUrl: string, visitor: Visitor) {
  return t.app.inject({
    method: 'GET',
    url: new URL(clickUrl).pathname,
    remoteAddress: '127.0.0.1',
    headers: { 'user-agent': visitor.ua ?? BROWSER_UA, 'x-forwarded-for': visitor.ip },
  });
}

export async function counts(db: Database) {
  const [impressions] = await db.select({ n: sql<number>`count(*)::int` }).from(adImpressions);
  const [uniqueClicks] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(adClicks)
    .where(eq(adClicks.isUnique, true));
  const [allClicks] = await db.select({ n: sql<number>`count(*)::int` }).from(adClicks);
  const [invalid] = await db.select({ n: sql<number>`count(*)::int` }).from(invalidTraffic);
  const [daily] = await db
    .select({
      pageviews: sql<number>`coalesce(sum(${dailyPublisherStats.pageviews}), 0)::int`,
      invalidPageviews: sql<number>`coalesce(sum(${dailyPublisherStats.invalidPageviews}), 0)::int`,
      impressions: sql<number>`coalesce(sum(${dailyPublisherStats.impressions}), 0)::int`,
      clicks: sql<number>`coalesce(sum(${dailyPublisherStats.clicks}), 0)::int`,
    })
    .from(dailyPublisherStats);
  return {
    impressions: impressions?.n ?? 0,
    uniqueClicks: uniqueClicks?.n ?? 0,
    allClicks: allClicks?.n ?? 0,
    invalid: invalid?.n ?? 0,
    daily: daily ?? { pageviews: 0, invalidPageviews: 0, impressions: 0, clicks: 0 },
  };
}

/** Leaves only this campaign with credits, so that every served ad is one of its ads. */
export async function onlyCampaign(t: TestApp, campaignId: number, credits: { impressions?: number; clicks?: number }) {
  await t.db.update(campaigns).set({ remainingImpressions: 0, remainingClicks: 0 });
  await t.db
    .update(campaigns)
    .set({ remainingImpressions: credits.impressions ?? 0, remainingClicks: credits.clicks ?? 0 })
    .where(eq(campaigns.id, campaignId));
  await t.app.delivery.refresh();
  // Earlier tests' unviewed ads release their reservations.
  t.clock.advance(3 * 60_000);
  t.app.delivery.sweep();
}

export async function campaignOfBrand(db: Database, link: string) {
  const [row] = await db
    .select({ campaignId: ads.campaignId })
    .from(ads)
    .where(sql`${ads.link} like ${`%${link}%`}`)
    .limit(1);
  if (!row) throw new Error(`no ad linking to ${link}`);
  return row.campaignId;
}

/** The demo blog and the two campaigns the counting tests bill: Vélo Urbain's and Atelier Céramique's. */
export async function blogAndTwoCampaigns(db: Database) {
  return {
    blog: await publisherId(db, 'Demo Blog'),
    bikes: await campaignOfBrand(db, 'velo-urbain.example'),
    ceramics: await campaignOfBrand(db, 'atelier-ceramique.example'),
  };
}

/** Leaves one web ad (a medium rectangle) of the campaign showing, so that every decision serves it: its id. */
export async function showOneAdOnly(db: Database, campaignId: number): Promise<number> {
  const [ad] = await db
    .select({ id: ads.id })
    .from(ads)
    .where(and(eq(ads.campaignId, campaignId), eq(ads.formatId, 3)))
    .limit(1);
  if (!ad) throw new Error(`no medium rectangle in campaign ${campaignId}`);
  await db
    .update(ads)
    .set({ isShowing: false })
    .where(and(eq(ads.campaignId, campaignId), ne(ads.id, ad.id)));
  return ad.id;
}

/** The campaign's validated impressions of today (UTC, by the app's clock), from the daily summary. */
export async function campaignImpressionsToday(t: TestApp, campaignId: number): Promise<number> {
  const [row] = await t.db
    .select({ n: sql<number>`coalesce(sum(${dailyAdStats.impressions}), 0)::int` })
    .from(dailyAdStats)
    .where(and(eq(dailyAdStats.campaignId, campaignId), eq(dailyAdStats.day, utcDay(t.clock.now()))));
  return row?.n ?? 0;
}

/** Sets the ad's budget to what it has cost so far plus one click at `cpc` micro-euros, and reloads the index. */
export async function budgetForOneMoreClick(t: TestApp, adId: number, cpc: number) {
  const [spent] = await t.db
    .select({ n: sql<number>`coalesce(sum(${dailyAdStats.cost} + ${dailyAdStats.trialCost}), 0)::bigint` })
    .from(dailyAdStats)
    .where(eq(dailyAdStats.adId, adId));
  await t.db
    .update(ads)
    .set({ budget: Number(spent?.n ?? 0) + cpc })
    .where(eq(ads.id, adId));
  await t.app.delivery.refresh();
}
