import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { adPublisherValidations, ads, advertisers, publishers, users } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { fixture, signedIn, upload } from '../../../test/ads-support.ts';
import { HOUR_MS } from '@helium/domain';

const REQUEST = '/api/admin/request-publishers-to-validate-ad-or-force-validation';

let t: TestApp;
let advertiser: TestClient;
let admin: TestClient;
let publisherUser: TestClient;
let otherAdvertiser: TestClient;
let demoBlogId: number;
let cuisineId: number;
let newsletterId: number;

beforeAll(async () => {
  t = await buildTestApp();
  advertiser = await signedIn(t, 'advertiser@demo.test');
  admin = await signedIn(t, 'admin@demo.test');
  publisherUser = await signedIn(t, 'publisher@demo.test');
  otherAdvertiser = await signedIn(t, 'multi@demo.test');
  const [ceramics] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Atelier Céramique'));
  await otherAdvertiser.post('/api/common/update-user', { key: 'type', value: `2,${ceramics?.id}` });
  const rows = await t.db.select().from(publishers);
  const id = (brand: string) => rows.find((p) => p.brand === brand)?.id ?? 0;
  demoBlogId = id('Demo Blog');
  cuisineId = id('Cuisine Facile');
  newsletterId = id('La Lettre Tech');
});
afterAll(async () => {
  await t?.close();
});

async function newAd(name = 'nordvik-horizontal.jpg') {
  const response = await upload(t, advertiser, { name, bytes: fixture(name) });
  expect(response.statusCode).toBe(200);
  return response.json().adId as number;
}

async function ad(id: number) {
  const [row] = await t.db.select().from(ads).where(eq(ads.id, id));
  if (!row) throw new Error('no ad');
  return row;
}

async function publisherState(adId: number, publisherId: number) {
  const [row] = await t.db
    .select()
    .from(adPublisherValidations)
    .where(and(eq(adPublisherValidations.adId, adId), eq(adPublisherValidations.publisherId, publisherId)));
  return row;
}

async function submitted(link = 'https://nordvik.example/offer') {
  const id = await newAd();
  expect(
    (await advertiser.post('/api/advertiser/update-or-delete-ad', { action: 'update', ad: { id, link } })).statusCode,
  ).toBe(200);
  expect((await advertiser.post('/api/advertiser/request-to-validate-ad', { adId: id })).statusCode).toBe(200);
  return id;
}

async function approved() {
  const id = await submitted();
  expect((await admin.post('/api/admin/validate-ad-by-admins', { adId: id, isAccepted: true })).statusCode).toBe(200);
  return id;
}

/** Asks Demo Blog about the ad and answers the hash id from the e-mail it received. */
async function requestDemoBlog(adId: number) {
  const before = t.smtp.messages.length;
  const response = await admin.post(REQUEST, { adId, publisherIds: [demoBlogId], acceptance: 3 });
  expect(response.json()).toEqual({ status: 'ok' });
  const mail = await t.smtp.waitForMail('publisher@demo.test', before);
  const match = /\/publisher-ad-validation\/([A-Za-z0-9]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error(`no link in ${mail.text}`);
  return { hashId: match[1], mail };
}

describe('advertiser: get-ads, link, delete, submit', () => {
  it('lists the advertiser ads with the seeded states and public hash ids', async () => {
    const response = await advertiser.post('/api/advertiser/get-ads');
    expect(response.statusCode).toBe(200);
    const list = response.json().ads as Array<{ validation: number; hashId: string; id: number }>;
    expect(new Set(list.map((a) => a.validation))).toEqual(new Set([0, 1, 2, 3]));
    for (const item of list) expect(item.hashId).not.toBe(String(item.id));
  });

  it('saves an http(s) link and refuses other schemes with nothing changed', async () => {
    const id = await newAd();
    const ok = await advertiser.post('/api/advertiser/update-or-delete-ad', {
      action: 'update',
      ad: { id, link: 'https://nordvik.example/a' },
    });
    expect(ok.json()).toEqual({ status: 'ok' });
    for (const link of ['javascript:alert(1)', 'ftp://nordvik.example', 'not a link', 'data:text/html,hi']) {
      const refused = await advertiser.post('/api/advertiser/update-or-delete-ad', {
        action: 'update',
        ad: { id, link },
      });
      expect(refused.statusCode).toBe(422);
    }
    expect((await ad(id)).link).toBe('https://nordvik.example/a');
    const cleared = await advertiser.post('/api/advertiser/update-or-delete-ad', {
      action: 'update',
      ad: { id, link: '' },
    });
    expect(cleared.statusCode).toBe(200);
    expect((await ad(id)).link).toBeNull();
  });

  it('refuses to submit without a link (0 stays 0), then submits with one (0 -> 3)', async () => {
    const id = await newAd();
    const refused = await advertiser.post('/api/advertiser/request-to-validate-ad', { adId: id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().status).toBe('redirectLinkNeeded');
    expect((await ad(id)).adminValidation).toBe(0);
    await advertiser.post('/api/advertiser/update-or-delete-ad', {
      action: 'update',
      ad: { id, link: 'http://nordvik.example/b' },
    });
    expect((await advertiser.post('/api/advertiser/request-to-validate-ad', { adId: id })).json()).toEqual({
      status: 'ok',
    });
    expect((await ad(id)).adminValidation).toBe(3);
    const listed = (await advertiser.post('/api/advertiser/get-ads'))
      .json()
      .ads.find((a: { id: number }) => a.id === id);
    expect(listed.expiresAtStr).toMatch(/\d{2}:\d{2}/);
  });

  it('locks the link once submitted and refuses a second submission', async () => {
    const id = await submitted();
    const update = await advertiser.post('/api/advertiser/update-or-delete-ad', {
      action: 'update',
      ad: { id, link: 'https://nordvik.example/changed' },
    });
    expect(update.statusCode).toBe(409);
    expect((await ad(id)).link).toBe('https://nordvik.example/offer');
    expect((await advertiser.post('/api/advertiser/request-to-validate-ad', { adId: id })).statusCode).toBe(409);
  });

  it('deletes an ad that is not validated, and refuses to delete a validated one', async () => {
    const id = await newAd();
    expect(
      (await advertiser.post('/api/advertiser/update-or-delete-ad', { action: 'delete', ad: { id } })).statusCode,
    ).toBe(200);
    expect((await ad(id)).deletedAt).not.toBeNull();
    const listed = (await advertiser.post('/api/advertiser/get-ads')).json().ads;
    expect(listed.some((a: { id: number }) => a.id === id)).toBe(false);
    const validated = await approved();
    const refused = await advertiser.post('/api/advertiser/update-or-delete-ad', {
      action: 'delete',
      ad: { id: validated },
    });
    expect(refused.statusCode).toBe(409);
    expect((await ad(validated)).deletedAt).toBeNull();
  });

  it('refuses another advertiser on this advertiser ad (403), with nothing changed', async () => {
    const id = await newAd();
    const calls = [
      otherAdvertiser.post('/api/advertiser/update-or-delete-ad', {
        action: 'update',
        ad: { id, link: 'https://evil.example' },
      }),
      otherAdvertiser.post('/api/advertiser/update-or-delete-ad', { action: 'delete', ad: { id } }),
      otherAdvertiser.post('/api/advertiser/request-to-validate-ad', { adId: id }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(403);
      expect(response.json().status).toBe('notYourAd');
    }
    const row = await ad(id);
    expect(row).toMatchObject({ link: null, adminValidation: 0, deletedAt: null });
    const theirs = (await otherAdvertiser.post('/api/advertiser/get-ads')).json().ads;
    expect(theirs.some((a: { id: number }) => a.id === id)).toBe(false);
  });

  it('validates every request: bad ids, unknown actions, unknown ads', async () => {
    expect((await advertiser.post('/api/advertiser/request-to-validate-ad', { adId: 'x' })).statusCode).toBe(422);
    expect((await advertiser.post('/api/advertiser/request-to-validate-ad', {})).statusCode).toBe(422);
    expect(
      (await advertiser.post('/api/advertiser/update-or-delete-ad', { action: 'drop', ad: { id: 1 } })).statusCode,
    ).toBe(422);
    expect((await advertiser.post('/api/advertiser/request-to-validate-ad', { adId: 999999 })).statusCode).toBe(404);
  });
});

describe('admin: decisions', () => {
  it('refuses admin calls to non-admins (403) and signed-out callers (401)', async () => {
    const id = await submitted();
    for (const client of [advertiser, publisherUser, otherAdvertiser]) {
      expect((await client.post('/api/admin/get-ad-validations', {})).statusCode).toBe(403);
      expect((await client.post('/api/admin/validate-ad-by-admins', { adId: id, isAccepted: true })).statusCode).toBe(
        403,
      );
      expect((await client.post(REQUEST, { adId: id, publisherIds: [demoBlogId], acceptance: 1 })).statusCode).toBe(
        403,
      );
    }
    expect((await t.client().post('/api/admin/get-ad-validations', {})).statusCode).toBe(401);
    expect((await ad(id)).adminValidation).toBe(3);
  });

  it('lists the 20 most recent ads, or one advertiser ads, with advertisers by brand', async () => {
    const all = (await admin.post('/api/admin/get-ad-validations', { sortBy: 'alpha' })).json();
    expect(all.ads.length).toBeLessThanOrEqual(20);
    expect(all.advertisers.map((a: { brand: string }) => a.brand)).toEqual(
      [...all.advertisers.map((a: { brand: string }) => a.brand)].sort((a: string, b: string) => a.localeCompare(b)),
    );
    const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
    const one = (await admin.post('/api/admin/get-ad-validations', { advertiserId: nordvik?.id })).json();
    expect(one.ads.every((a: { advertiser_id: number }) => a.advertiser_id === nordvik?.id)).toBe(true);
    const web = one.ads.find((a: { format_id: number }) => a.format_id !== 2);
    expect(web.publishers.map((p: { brand: string }) => p.brand)).toContain('Demo Blog');
    expect(web.publishers.map((p: { brand: string }) => p.brand)).not.toContain('La Lettre Tech');
  });

  it('approves a pending ad (3 -> 1) and e-mails the advertiser in their language', async () => {
    const id = await submitted();
    const before = t.smtp.messages.length;
    const response = await admin.post('/api/admin/validate-ad-by-admins', { adId: id, isAccepted: true });
    expect(response.json()).toEqual({ status: 'ok' });
    expect(await ad(id)).toMatchObject({ adminValidation: 1, isEmailedAsValidated: true });
    const mail = await t.smtp.waitForMail('advertiser@demo.test', before);
    expect(mail.subject).toMatch(/approved/);
  });

  it('rejects a pending ad (3 -> 2) and e-mails a French advertiser in French', async () => {
    const id = await submitted();
    await t.db.update(users).set({ locale: 'fr' }).where(eq(users.email, 'advertiser@demo.test'));
    try {
      const before = t.smtp.messages.length;
      expect((await admin.post('/api/admin/validate-ad-by-admins', { adId: id, isAccepted: false })).statusCode).toBe(
        200,
      );
      expect(await ad(id)).toMatchObject({ adminValidation: 2, isEmailedAsValidated: false });
      const mail = await t.smtp.waitForMail('advertiser@demo.test', before);
      expect(mail.subject).toMatch(/refusée/);
      const listed = (await advertiser.post('/api/advertiser/get-ads'))
        .json()
        .ads.find((a: { id: number }) => a.id === id);
      expect(listed.validation).toBe(2);
    } finally {
      await t.db.update(users).set({ locale: 'en' }).where(eq(users.email, 'advertiser@demo.test'));
    }
  });

  it('decides only on a pending ad: 0, 1 and 2 are refused with nothing changed', async () => {
    const notSubmitted = await newAd();
    const accepted = await approved();
    const declined = await submitted();
    await admin.post('/api/admin/validate-ad-by-admins', { adId: declined, isAccepted: false });
    for (const [id, state] of [
      [notSubmitted, 0],
      [accepted, 1],
      [declined, 2],
    ] as const) {
      const response = await admin.post('/api/admin/validate-ad-by-admins', { adId: id, isAccepted: state !== 1 });
      expect(response.statusCode).toBe(409);
      expect((await ad(id)).adminValidation).toBe(state);
    }
  });

  it('acts on publishers only once the ad is approved, and only on installed ones', async () => {
    const pending = await submitted();
    const refused = await admin.post(REQUEST, { adId: pending, publisherIds: [demoBlogId], acceptance: 3 });
    expect(refused.statusCode).toBe(409);
    expect(await publisherState(pending, demoBlogId)).toBeUndefined();

    const id = await approved();
    await t.db.update(publishers).set({ isInstalled: false }).where(eq(publishers.id, cuisineId));
    try {
      const response = await admin.post(REQUEST, { adId: id, publisherIds: [demoBlogId, cuisineId], acceptance: 1 });
      expect(response.statusCode).toBe(409);
      expect(response.json().status).toBe('publisherNotInstalled');
      expect(await publisherState(id, demoBlogId)).toBeUndefined();
    } finally {
      await t.db.update(publishers).set({ isInstalled: true }).where(eq(publishers.id, cuisineId));
    }
    const wrongKind = await admin.post(REQUEST, { adId: id, publisherIds: [newsletterId], acceptance: 1 });
    expect(wrongKind.statusCode).toBe(422);
    expect((await admin.post(REQUEST, { adId: id, publisherIds: [], acceptance: 1 })).statusCode).toBe(422);
    expect((await admin.post(REQUEST, { adId: id, publisherIds: [demoBlogId], acceptance: 4 })).statusCode).toBe(422);
  });

  it('force-approves (-> 1) and force-declines (-> 2) chosen publishers without e-mail', async () => {
    const id = await approved();
    const before = t.smtp.messages.length;
    expect((await admin.post(REQUEST, { adId: id, publisherIds: [demoBlogId], acceptance: 1 })).statusCode).toBe(200);
    expect((await admin.post(REQUEST, { adId: id, publisherIds: [cuisineId], acceptance: 2 })).statusCode).toBe(200);
    expect(await publisherState(id, demoBlogId)).toMatchObject({ state: 1, decidedBy: 'admin' });
    expect(await publisherState(id, cuisineId)).toMatchObject({ state: 2, decidedBy: 'admin' });
    expect((await admin.post(REQUEST, { adId: id, publisherIds: [cuisineId], acceptance: 1 })).statusCode).toBe(200);
    expect(await publisherState(id, cuisineId)).toMatchObject({ state: 1 });
    expect(t.smtp.messages.length).toBe(before);
    const view = (await admin.post('/api/admin/get-ad-validations', {}))
      .json()
      .ads.find((a: { id: number }) => a.id === id);
    expect(view.publishers.find((p: { id: number }) => p.id === demoBlogId).adValidation).toBe(1);
  });
});

describe('publisher: the e-mailed link', () => {
  it('requests a publisher (0 -> 3) with a hash link that opens the ad, then the publisher accepts (3 -> 1)', async () => {
    const id = await approved();
    const { hashId, mail } = await requestDemoBlog(id);
    expect(mail.text).not.toContain(`/publisher-ad-validation/${id}`);
    expect(await publisherState(id, demoBlogId)).toMatchObject({ state: 3 });
    const view = (await admin.post('/api/admin/get-ad-validations', {}))
      .json()
      .ads.find((a: { id: number }) => a.id === id);
    expect(view.publishers.find((p: { id: number }) => p.id === demoBlogId).expiresAtStr).toBeTruthy();

    const anonymous = t.client();
    const shown = await anonymous.post('/api/publisher/get-ad-validation', { hashId });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      advertiser: { brand: 'Nordvik Outdoor' },
      publisher: { brand: 'Demo Blog' },
      acceptance: 3,
      canValidate: true,
      ad: { type: 'image', link: 'https://nordvik.example/offer' },
    });
    expect(shown.json().ad.image).toMatch(/^\/media\/[a-f0-9]{64}\.jpg$/);

    expect((await anonymous.post('/api/publisher/update-ad-validation', { hashId, acceptance: 1 })).json()).toEqual({
      status: 'ok',
    });
    expect(await publisherState(id, demoBlogId)).toMatchObject({ state: 1, decidedBy: 'publisher' });
    const again = (await anonymous.post('/api/publisher/get-ad-validation', { hashId })).json();
    expect(again).toMatchObject({ acceptance: 1, canValidate: true });
    // A second request to the same publisher is refused.
    expect((await admin.post(REQUEST, { adId: id, publisherIds: [demoBlogId], acceptance: 3 })).statusCode).toBe(409);
  });

  it('e-mails each publisher in its own language (Cuisine Facile belongs to a French user)', async () => {
    const id = await approved();
    const before = t.smtp.messages.length;
    const response = await admin.post(REQUEST, { adId: id, publisherIds: [cuisineId], acceptance: 3 });
    expect(response.json()).toEqual({ status: 'ok' });
    const mail = await t.smtp.waitForMail('multi@demo.test', before);
    expect(mail.subject).toMatch(/nouvelle annonce à valider pour Cuisine Facile/);
    expect(mail.text).toMatch(/\/publisher-ad-validation\/[A-Za-z0-9]+/);
  });

  it('lets the publisher change the answer within 24 hours of it (1 -> 2), not after', async () => {
    const id = await approved();
    const { hashId } = await requestDemoBlog(id);
    const anonymous = t.client();
    await anonymous.post('/api/publisher/update-ad-validation', { hashId, acceptance: 1 });
    t.clock.advance(23 * HOUR_MS);
    expect((await anonymous.post('/api/publisher/update-ad-validation', { hashId, acceptance: 2 })).statusCode).toBe(
      200,
    );
    expect((await publisherState(id, demoBlogId))?.state).toBe(2);
    t.clock.advance(24 * HOUR_MS + 1);
    const late = await anonymous.post('/api/publisher/update-ad-validation', { hashId, acceptance: 1 });
    expect(late.statusCode).toBe(409);
    expect(late.json().status).toBe('cannotValidate');
    expect((await publisherState(id, demoBlogId))?.state).toBe(2);
    expect((await anonymous.post('/api/publisher/get-ad-validation', { hashId })).json().canValidate).toBe(false);
  });

  it('counts a request not answered in 24 hours as approved (3 -> 1 by the scheduled job)', async () => {
    const id = await approved();
    const { hashId } = await requestDemoBlog(id);
    t.clock.advance(23 * HOUR_MS);
    await t.app.ctx.scheduler.runNow('ad-validation-timeouts');
    expect((await publisherState(id, demoBlogId))?.state).toBe(3);
    t.clock.advance(HOUR_MS);
    expect(await t.app.ctx.scheduler.runNow('ad-validation-timeouts')).toBe(1);
    expect(await publisherState(id, demoBlogId)).toMatchObject({ state: 1, decidedBy: 'timeout' });
    const anonymous = t.client();
    expect((await anonymous.post('/api/publisher/get-ad-validation', { hashId })).json()).toMatchObject({
      acceptance: 1,
      canValidate: false,
    });
    expect((await anonymous.post('/api/publisher/update-ad-validation', { hashId, acceptance: 2 })).statusCode).toBe(
      409,
    );
  });

  it('refuses a link for one ad used for another ad, and links that were never sent', async () => {
    const first = await approved();
    const second = await approved();
    const { hashId } = await requestDemoBlog(first);
    const forSecond = t.app.ctx.hashIds.encodePublisherAdValidation(second, demoBlogId);
    expect(forSecond).not.toBe(hashId);
    const anonymous = t.client();
    for (const candidate of [forSecond, t.app.ctx.hashIds.encodeAd(first), String(first), 'abcdef123456', 'x']) {
      const shown = await anonymous.post('/api/publisher/get-ad-validation', { hashId: candidate });
      expect(shown.statusCode).toBe(404);
      const answered = await anonymous.post('/api/publisher/update-ad-validation', {
        hashId: candidate,
        acceptance: 2,
      });
      expect(answered.statusCode).toBe(404);
    }
    expect(await publisherState(second, demoBlogId)).toBeUndefined();
    expect((await publisherState(first, demoBlogId))?.state).toBe(3);
    expect((await anonymous.post('/api/publisher/get-ad-validation', { hashId: '../../x' })).statusCode).toBe(422);
    expect((await anonymous.post('/api/publisher/update-ad-validation', { hashId, acceptance: 3 })).statusCode).toBe(
      422,
    );
  });

  it('keeps links valid across a restart (the salt comes from configuration)', async () => {
    const { HashIds } = await import('../../infra/hash-ids.ts');
    const again = new HashIds(t.app.ctx.config.hashidsSalt);
    expect(again.encodePublisherAdValidation(12, 34)).toBe(t.app.ctx.hashIds.encodePublisherAdValidation(12, 34));
    expect(again.decodePublisherAdValidation(again.encodePublisherAdValidation(12, 34))).toEqual({
      adId: 12,
      publisherId: 34,
    });
  });
});
