import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { publishers } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { campaignOfBrand, decide, onlyCampaign, showOneAdOnly } from '../../../test/serve-support.ts';

/*
 * A publisher an admin creates is served without a restart: its first page installs it (the script's heartbeat),
 * an ad the admin approves for it is then served there, and an edit that switches it to a newsletter stops it.
 */

let t: TestApp;
let admin: TestClient;
let round = 0;

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
});
afterAll(async () => t?.close());

/** Ads served to a new browser on the publisher's page. */
async function servedOn(publisherId: number): Promise<number> {
  round++;
  const ua = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.${round}.0 Safari/537.36`;
  const { response, ads } = await decide(t, publisherId, { ip: `198.51.100.${round}`, ua });
  expect(response.statusCode).toBe(200);
  return ads.length;
}

describe('a publisher created by an admin', () => {
  it('is installed by its first page and served the ad approved for it, with no restart', async () => {
    const created = await admin.post('/api/admin/create-account', {
      kind: 'publisher',
      brand: 'Nouveau Site',
      email: 'nouveau@site.test',
      name: 'Nouveau',
      locale: 'fr',
      domain: 'nouveau-site.test',
    });
    expect(created.statusCode).toBe(200);
    const publisherId: number = created.json().accountId;
    const bikes = await campaignOfBrand(t.db, 'velo-urbain.example');
    const adId = await showOneAdOnly(t.db, bikes);
    await onlyCampaign(t, bikes, { impressions: 100_000 });

    // Known to serving at once, but nothing is validated for it yet; its page installs it.
    await expect.poll(() => servedOn(publisherId), { timeout: 5_000 }).toBe(0);
    await expect
      .poll(async () => (await t.db.select().from(publishers).where(eq(publishers.id, publisherId)))[0]?.isInstalled)
      .toBe(true);

    const approved = await admin.post('/api/admin/request-publishers-to-validate-ad-or-force-validation', {
      adId,
      publisherIds: [publisherId],
      acceptance: 1,
    });
    expect(approved.statusCode).toBe(200);
    await expect.poll(() => servedOn(publisherId), { timeout: 5_000 }).toBe(1);

    const toNewsletter = await admin.post('/api/admin/update-publisher', { publisherId, isWeb: false, isOwl: true });
    expect(toNewsletter.statusCode).toBe(200);
    await expect.poll(() => servedOn(publisherId), { timeout: 5_000 }).toBe(0);
  });
});
