import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { owlIssueAds, publishers, users } from '@helium/db';
import {
  NEWSLETTER_ISSUE_PLACEHOLDER,
  ZCheckInstallResponseSchema,
  ZGetInstallationDataResponseSchema,
} from '@helium/contracts';
import { buildTestApp, signedInPublisher, type TestApp } from '../../../test/helper.ts';
import { BROWSER_UA, decide, publisherId } from '../../../test/serve-support.ts';

let t: TestApp;
let blog: number;
let newsletter: number;
let cuisine: number;

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  newsletter = await publisherId(t.db, 'La Lettre Tech');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
});
afterAll(async () => t.close());

const CALLS = ['/api/publisher/get-installation-data', '/api/publisher/check-install'];

describe('access', () => {
  it('answers 401 when signed out', async () => {
    const client = t.client();
    for (const call of CALLS) {
      const response = await client.post(call);
      expect(response.statusCode).toBe(401);
      expect(response.json().status).toBe('unauthenticated');
    }
  });

  it('answers 403 to an admin and an advertiser', async () => {
    for (const email of ['admin@demo.test', 'advertiser@demo.test']) {
      const client = t.client();
      await client.signIn(email);
      for (const call of CALLS) {
        const response = await client.post(call);
        expect(response.statusCode, `${email} ${call}`).toBe(403);
      }
    }
  });

  it('answers 419 without the anti-forgery token', async () => {
    const client = await signedInPublisher(t);
    const response = await client.post(CALLS[0]!, {}, { xsrf: false });
    expect(response.statusCode).toBe(419);
  });
});

describe('get-installation-data', () => {
  it("answers the web publisher's line of code, the check duration, and no newsletter fields", async () => {
    const client = await signedInPublisher(t, blog);
    const response = await client.post('/api/publisher/get-installation-data');
    expect(response.statusCode).toBe(200);
    const data = ZGetInstallationDataResponseSchema.parse(response.json());
    expect(data.publisher).toEqual({ id: blog, brand: 'Demo Blog' });
    expect(data.lineOfCode1).toBe(
      `<script async src="http://localhost:3000/serve/script.js" data-publisher="${blog}"></script>`,
    );
    expect(data.publisherInstallCheckTimout).toBe(5);
    expect(data).toMatchObject({
      tutorialUrl: null,
      tutorialMinutes: null,
      owlHtmlBanner1: null,
      owlHtmlBanner2: null,
    });
  });

  it('answers a line of code the serving endpoints accept', async () => {
    const client = await signedInPublisher(t, blog);
    const { lineOfCode1 } = (await client.post('/api/publisher/get-installation-data')).json();
    const src = new URL(/src="([^"]+)"/.exec(lineOfCode1)![1]!);
    const script = await t.app.inject({ method: 'GET', url: src.pathname });
    // The script is served once built (npm run build); before that the route still answers JavaScript.
    expect(script.headers['content-type']).toMatch(/javascript/);
    const publisher = Number(/data-publisher="(\d+)"/.exec(lineOfCode1)![1]);
    const { response } = await decide(t, publisher, { ip: '10.40.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-helium-counted']).toBe('counted');
  });

  it("answers a newsletter publisher's banner snippets and tutorial", async () => {
    const client = await signedInPublisher(t, newsletter);
    const data = ZGetInstallationDataResponseSchema.parse(
      (await client.post('/api/publisher/get-installation-data')).json(),
    );
    expect(data.publisher).toEqual({ id: newsletter, brand: 'La Lettre Tech' });
    expect(data.tutorialUrl).toBe('http://localhost:3000/serve/newsletter-tutorial');
    expect(data.tutorialMinutes).toBe(3);
    const hashId = t.app.ctx.hashIds.encodePublisher(newsletter);
    for (const [banner, html] of [
      [1, data.owlHtmlBanner1],
      [2, data.owlHtmlBanner2],
    ] as const) {
      const base = `http://localhost:3000/serve/owl/${hashId}/${banner}/${NEWSLETTER_ISSUE_PLACEHOLDER}`;
      expect(html).toContain(`href="${base}/click"`);
      expect(html).toContain(`src="${base}/image"`);
      expect(html).not.toContain(`/serve/owl/${newsletter}/`);
    }
    // The text shown when images are blocked is in the publisher's language (the signed-in user's).
    const locale = (await client.post('/api/common/user')).json().locale as string;
    const altOf = (html: string | null) => /alt="([^"]*)"/.exec(html ?? '')?.[1];
    await client.post('/api/common/update-user', { key: 'locale', value: 'fr' });
    const french = (await client.post('/api/publisher/get-installation-data')).json();
    expect([altOf(french.owlHtmlBanner1), altOf(french.owlHtmlBanner2)]).toEqual(['Publicité', 'Publicité']);
    await client.post('/api/common/update-user', { key: 'locale', value: 'en' });
    const english = (await client.post('/api/publisher/get-installation-data')).json();
    expect([altOf(english.owlHtmlBanner1), altOf(english.owlHtmlBanner2)]).toEqual(['Ad', 'Ad']);
    await client.post('/api/common/update-user', { key: 'locale', value: locale });
    const tutorial = await t.app.inject({ method: 'GET', url: new URL(data.tutorialUrl!).pathname });
    expect(tutorial.statusCode).toBe(200);
    expect(tutorial.body).toContain(NEWSLETTER_ISSUE_PLACEHOLDER);
  });

  it("never shows another publisher's data", async () => {
    const multi = await signedInPublisher(t, cuisine, 'multi@demo.test');
    const data = (await multi.post('/api/publisher/get-installation-data')).json();
    expect(data.publisher).toEqual({ id: cuisine, brand: 'Cuisine Facile' });
    expect(data.lineOfCode1).toContain(`data-publisher="${cuisine}"`);
    // The body names no publisher: a foreign id sent anyway changes nothing.
    const sneaky = await multi.post('/api/publisher/get-installation-data', { publisherId: blog });
    expect(sneaky.json().publisher.id).toBe(cuisine);
    // And switching to another user's publisher is refused.
    const refused = await multi.post('/api/common/update-user', { key: 'type', value: `1,${blog}` });
    expect(refused.statusCode).toBe(403);
    expect((await multi.post('/api/publisher/check-install')).json().domain).toBe('cuisine-facile.example');
  });
});

describe('WordPress plug-in', () => {
  it("is a zip of one plug-in file printing the publisher's line of code in the head", async () => {
    const client = await signedInPublisher(t, blog);
    const { lineOfCode1 } = (await client.post('/api/publisher/get-installation-data')).json();
    const response = await client.get('/api/publisher/helium-ads.zip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    // One name for the link, the saved file and the instructions (issue 26).
    expect(response.headers['content-disposition']).toBe('attachment; filename="helium-ads.zip"');
    const dir = mkdtempSync(join(tmpdir(), 'helium-plugin-'));
    writeFileSync(join(dir, 'plugin.zip'), response.rawPayload);
    execFileSync('unzip', ['-q', 'plugin.zip'], { cwd: dir });
    const php = readFileSync(join(dir, 'helium-ads', 'helium-ads.php'), 'utf8');
    expect(php).toContain('Plugin Name: Helium Ads');
    expect(php).toContain(`add_action('wp_head'`);
    expect(php).toContain(`echo '${lineOfCode1}'`);
  });

  it('is refused to other account types', async () => {
    expect((await t.client().get('/api/publisher/helium-ads.zip')).statusCode).toBe(401);
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    expect((await advertiser.get('/api/publisher/helium-ads.zip')).statusCode).toBe(403);
  });
});

describe('check-install', () => {
  it('is installed only once the script ran on the registered domain', async () => {
    const multi = await signedInPublisher(t, cuisine, 'multi@demo.test');
    const check = async () =>
      ZCheckInstallResponseSchema.parse((await multi.post('/api/publisher/check-install')).json());
    expect(await check()).toEqual({ isInstalled: false, domain: 'cuisine-facile.example', lastSeenAt: null });

    // The script pasted on another site does not install it.
    await decide(t, cuisine, { ip: '10.41.0.1' }, 'https://copycat.example/page');
    expect((await check()).isInstalled).toBe(false);

    // The script's heartbeat from a page of the registered domain (www and subdomains count).
    const heartbeat = await t.app.inject({
      method: 'GET',
      url: `/serve/h?p=${cuisine}`,
      headers: { origin: 'https://www.cuisine-facile.example', 'user-agent': BROWSER_UA },
    });
    expect(heartbeat.statusCode).toBe(204);
    const installed = await check();
    expect(installed.isInstalled).toBe(true);
    expect(new Date(installed.lastSeenAt!).getTime()).toBe(t.clock.now().getTime());
  });

  it("answers for the account in use only: another publisher's heartbeat does not install it", async () => {
    const client = await signedInPublisher(t, blog);
    const before = (await client.post('/api/publisher/check-install')).json();
    const multi = await signedInPublisher(t, undefined, 'multi@demo.test');
    await multi.post('/api/common/update-user', { key: 'type', value: `1,${await publisherId(t.db, 'Rando Alpes')}` });
    expect((await multi.post('/api/publisher/check-install')).json()).toMatchObject({
      isInstalled: false,
      domain: 'rando-alpes.example',
    });
    expect(before.domain).toBe('localhost');
  });

  it("installs a newsletter once its banner's image is requested, even when no ad can be shown yet", async () => {
    // A new newsletter of the demo publisher: it approved no ad, so its banners can choose none.
    const [owner] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'publisher@demo.test'));
    const [created] = await t.db
      .insert(publishers)
      .values({ userId: owner!.id, brand: 'Lettre Neuve', isWeb: false, isOwl: true })
      .returning({ id: publishers.id });
    const letter = created!.id;
    await t.app.delivery.refresh();
    const client = await signedInPublisher(t, letter);
    const check = async () =>
      ZCheckInstallResponseSchema.parse((await client.post('/api/publisher/check-install')).json());
    const stored = async () => (await t.db.select().from(publishers).where(eq(publishers.id, letter)))[0]!.isInstalled;
    expect(await check()).toEqual({ isInstalled: false, domain: null, lastSeenAt: null });

    // A web page on a host named "newsletter" does not pass for the newsletter's banner.
    await t.app.inject({
      method: 'GET',
      url: `/serve/h?p=${letter}`,
      headers: { origin: 'http://newsletter', 'user-agent': BROWSER_UA },
    });
    expect((await check()).isInstalled).toBe(false);

    const image = () =>
      t.app.inject({
        method: 'GET',
        url: `/serve/owl/${t.app.ctx.hashIds.encodePublisher(letter)}/1/issue-1/image`,
        remoteAddress: '127.0.0.1',
        headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': '10.42.0.1' },
      });
    const first = await image();
    await t.app.delivery.recorder.flush();
    // No ad was chosen: the transparent pixel, nothing counted, no issue ad kept.
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/gif');
    expect(first.headers['x-helium-counted']).toBe('ignored');
    expect(await t.db.select().from(owlIssueAds).where(eq(owlIssueAds.publisherId, letter))).toEqual([]);
    const firstSeen = t.clock.now().toISOString();
    expect(await check()).toEqual({ isInstalled: true, domain: null, lastSeenAt: firstSeen });
    expect(await stored()).toBe(true);
    expect((await client.post('/api/publisher/get-performance-history')).json().publisherIsInstalled).toBe(true);

    // Recorded at most once a minute, as the script's heartbeat.
    t.clock.advance(30_000);
    t.app.delivery.sweep();
    await image();
    await t.app.delivery.recorder.flush();
    expect((await check()).lastSeenAt).toBe(firstSeen);
    t.clock.advance(31_000);
    t.app.delivery.sweep();
    await image();
    await t.app.delivery.recorder.flush();
    expect((await check()).lastSeenAt).toBe(t.clock.now().toISOString());
  });
});
