import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { adImpressions, adPublisherValidations, ads, owlIssueAds } from '@helium/db';
import type { TestApp, TestAppOptions } from './helper.ts';
import { BROWSER_UA, campaignOfBrand, publisherId, type Visitor } from './serve-support.ts';

/*
 * What the newsletter (owl) banner tests (serve-owl.test.ts, serve-owl-forged-opens.test.ts) share: the test app's
 * options, La Lettre Tech with a second advertiser's newsletter ad, the banner links' calls and the counts they read.
 */

/** The test app's options: delivery's random source, and the data centres' ranges. */
export function owlAppOptions(random: () => number): TestAppOptions {
  // A hosting provider's addresses, from which no reader opens a newsletter.
  const ranges = join(mkdtempSync(join(tmpdir(), 'helium-owl-')), 'datacentres.txt');
  writeFileSync(ranges, '203.0.113.0/24\n');
  return { delivery: { random }, env: { DATACENTER_IP_RANGES_FILE: ranges } };
}

/** The newsletter La Lettre Tech (and its hash in the banner links) and the web-only Demo Blog, once set up. */
export async function owlPublishers(t: TestApp) {
  const newsletter = await publisherId(t.db, 'La Lettre Tech');
  const blog = await publisherId(t.db, 'Demo Blog');
  const hash = t.app.ctx.hashIds.encodePublisher(newsletter);
  const bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
  const ceramics = await campaignOfBrand(t.db, 'atelier-ceramique.example');
  // A second newsletter ad, of another advertiser, so that an issue has a choice to keep.
  const [bikesAd] = await t.db.select().from(ads).where(eq(ads.campaignId, bikes)).limit(1);
  const [ceramicsAd] = await t.db.select().from(ads).where(eq(ads.campaignId, ceramics)).limit(1);
  const [added] = await t.db
    .insert(ads)
    .values({
      advertiserId: ceramicsAd!.advertiserId,
      campaignId: ceramics,
      type: 'image',
      formatId: 2,
      width: 600,
      height: 150,
      link: 'https://atelier-ceramique.example/helium-demo/newsletter',
      isOwlOnly: true,
      adminValidation: 1,
      submittedAt: new Date(),
      adminValidatedAt: new Date(),
    })
    .returning({ id: ads.id });
  await t.db.insert(adPublisherValidations).values({
    adId: added!.id,
    publisherId: newsletter,
    state: 1,
    requestedAt: new Date(),
    decidedAt: new Date(),
    decidedBy: 'admin',
  });
  expect(bikesAd).toBeDefined();
  await t.app.delivery.refresh();
  return { newsletter, blog, hash };
}

export const READER: Visitor = { ip: '10.60.0.1' };
export const GMAIL_UA = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';
export const YAHOO_UA = 'YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html';
/** A Gmail image proxy address (Google's own, not Google Cloud's), and an iCloud Private Relay egress address. */
export const GMAIL_PROXY: Visitor = { ip: '66.249.84.10', ua: GMAIL_UA };
export const APPLE_PROXY: Visitor = { ip: '104.28.28.1', ua: 'Mozilla/5.0' };

/**
 * The banner links' calls and counts on a test file's app and newsletter, which `file` answers when called (they
 * are set up in the file's beforeAll).
 */
export function owlCalls(file: () => { t: TestApp; newsletter: number; hash: string }) {
  function owl(
    banner: number,
    issue: string,
    kind: 'image' | 'click',
    visitor: Visitor = READER,
    publisher = file().hash,
  ) {
    const { t } = file();
    return t.app.inject({
      method: 'GET',
      url: `/serve/owl/${publisher}/${banner}/${encodeURIComponent(issue)}/${kind}`,
      remoteAddress: '127.0.0.1',
      headers: { 'user-agent': visitor.ua ?? BROWSER_UA, 'x-forwarded-for': visitor.ip },
    });
  }

  async function issueAd(banner: number, issue: string) {
    const { t, newsletter } = file();
    const [row] = await t.db
      .select({ adId: owlIssueAds.adId })
      .from(owlIssueAds)
      .where(
        and(eq(owlIssueAds.publisherId, newsletter), eq(owlIssueAds.bannerIndex, banner), eq(owlIssueAds.issue, issue)),
      );
    return row?.adId ?? null;
  }

  async function impressionsOf(adId: number) {
    const { t, newsletter } = file();
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(adImpressions)
      .where(and(eq(adImpressions.adId, adId), eq(adImpressions.publisherId, newsletter)));
    return row?.n ?? 0;
  }

  return { owl, issueAd, impressionsOf };
}
