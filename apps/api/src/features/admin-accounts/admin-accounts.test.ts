import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { advertisers, auditLog, campaignCredits, campaigns, publishers, users } from '@helium/db';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint } from '../../../test/call-samples.ts';
import { creditMismatches } from '../billing/credits-ledger.ts';

/*
 * Onboarding: an admin creates a publisher or an advertiser (and its user, welcomed by e-mail, who can sign in at
 * once), edits them and their campaigns, grants credits through the ledger; nobody else may, and no call makes or
 * unmakes an admin.
 */

let t: TestApp;
let admin: TestClient;
const NOT_COMPARED = ['sessions', 'login_codes'];

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
});
afterAll(async () => {
  await t?.close();
});

async function lastAudit(action: string) {
  const [row] = await t.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row;
}

describe('create-account', () => {
  it('creates a web publisher and its user, who gets a welcome mail in French and can sign in at once', async () => {
    const before = t.smtp.messages.length;
    const response = await admin.post('/api/admin/create-account', {
      kind: 'publisher',
      brand: 'Le Petit Jardin',
      email: 'Claire@Jardin.test',
      name: 'Claire Dubois',
      locale: 'fr',
      domain: 'petit-jardin.test',
    });
    expect(response.statusCode).toBe(200);
    const created = response.json();
    expect(created).toMatchObject({ status: 'ok', kind: 'publisher', userCreated: true, campaignId: null });
    const [publisher] = await t.db.select().from(publishers).where(eq(publishers.id, created.accountId));
    expect(publisher).toMatchObject({ brand: 'Le Petit Jardin', isWeb: true, isOwl: false, userId: created.userId });
    expect(publisher!.domain).toBe('petit-jardin.test');
    const [user] = await t.db.select().from(users).where(eq(users.id, created.userId));
    expect(user).toMatchObject({ email: 'claire@jardin.test', locale: 'fr', isAdmin: false, currentType: 1 });
    expect(user!.currentAccountId).toBe(created.accountId);

    const mail = await t.smtp.waitForMail('claire@jardin.test', before);
    expect(mail.subject).toBe('Bienvenue sur Helium Ads');
    expect(mail.text).toContain('/signin');
    expect(mail.text).toContain('Le Petit Jardin');

    const client = t.client();
    const signedIn = await client.signIn('claire@jardin.test');
    expect(signedIn.json()).toMatchObject({ status: 'ok', redirectTo: '/publisher/installation' });
    expect((await client.post('/api/common/user')).json()).toMatchObject({ homePath: '/publisher/installation' });
    const installation = await client.post('/api/publisher/get-installation-data');
    expect(installation.statusCode).toBe(200);

    expect(await lastAudit('account.create')).toMatchObject({ targetType: 'publisher', targetId: created.accountId });
  });

  it('adds a newsletter publisher to an existing user without a new user or mail', async () => {
    const before = t.smtp.messages.length;
    const [existing] = await t.db.select().from(users).where(eq(users.email, 'publisher@demo.test'));
    const response = await admin.post('/api/admin/create-account', {
      kind: 'publisher',
      brand: 'Lettre du Jeudi',
      email: 'publisher@demo.test',
      name: 'ignored',
      locale: 'fr',
      newsletter: true,
    });
    expect(response.json()).toMatchObject({ status: 'ok', userCreated: false, userId: existing!.id });
    const [after] = await t.db.select().from(users).where(eq(users.id, existing!.id));
    expect(after).toMatchObject({ name: existing!.name, locale: existing!.locale });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(t.smtp.messages.slice(before).filter((m) => m.to.includes('publisher@demo.test'))).toEqual([]);
  });

  it('creates an advertiser with a CPC campaign whose trial credits are a ledger entry', async () => {
    const response = await admin.post('/api/admin/create-account', {
      kind: 'advertiser',
      brand: 'Vélos Rapides',
      email: 'marc@velos.test',
      name: 'Marc',
      locale: 'en',
      campaign: { isCpc: true, price: 0.4 },
      trialCredits: 250,
    });
    expect(response.statusCode).toBe(200);
    const { campaignId } = response.json();
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(campaign).toMatchObject({ isCpc: true, cpc: 400_000, remainingClicks: 250, isTrial: true });
    const entries = await t.db.select().from(campaignCredits).where(eq(campaignCredits.campaignId, campaignId));
    expect(entries).toEqual([expect.objectContaining({ kind: 'trial', clicks: 250 })]);
    expect(await creditMismatches(t.db)).toEqual([]);
    const mail = await t.smtp.waitForMail('marc@velos.test');
    expect(mail.subject).toBe('Welcome to Helium Ads');
  });

  it.each([
    ['a publisher with neither domain nor newsletter', { kind: 'publisher' }],
    ['a bad domain', { kind: 'publisher', domain: 'http://x/y' }],
    ['a bad e-mail', { kind: 'publisher', domain: 'ok.test', email: 'nope' }],
    ['an admin flag', { kind: 'publisher', domain: 'ok.test', isAdmin: true }],
    ['an unknown sales rep', { kind: 'publisher', domain: 'ok.test', salesRep: 'nobody@nowhere.test' }],
    ['a revenue share above 100 %', { kind: 'publisher', domain: 'ok.test', revenueSharePct: 120 }],
    ['an unknown kind', { kind: 'admin' }],
  ])('refuses %s with a 4xx and changes nothing', async (_label, extra) => {
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await admin.post('/api/admin/create-account', {
      brand: 'Nope',
      email: 'nope@nope.test',
      name: 'Nope',
      locale: 'en',
      ...extra,
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('is refused to publishers and advertisers (403) and to the signed out (401)', async () => {
    const body = { kind: 'publisher', brand: 'X', email: 'x@x.test', name: 'X', locale: 'en', newsletter: true };
    const publisher = await signedInPublisher(t);
    expect((await publisher.post('/api/admin/create-account', body)).statusCode).toBe(403);
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    expect((await advertiser.post('/api/admin/create-account', body)).statusCode).toBe(403);
    expect((await advertiser.post('/api/admin/get-accounts', {})).statusCode).toBe(403);
    expect((await t.client().post('/api/admin/create-account', body)).statusCode).toBe(401);
  });
});

describe('editing accounts', () => {
  it('lists accounts by search, with the publisher fields and the campaigns', async () => {
    const response = await admin.post('/api/admin/get-accounts', { search: 'jardin' });
    expect(response.statusCode).toBe(200);
    const { publishers: found, advertisers } = response.json();
    expect(found.map((p: { brand: string }) => p.brand)).toEqual(['Le Petit Jardin']);
    expect(found[0]).toMatchObject({ email: 'claire@jardin.test', revenueSharePct: null, isInstalled: false });
    expect(advertisers).toEqual([]);
    const velos = (await admin.post('/api/admin/get-accounts', { search: 'velos' })).json().advertisers;
    expect(velos[0].campaigns[0]).toMatchObject({ isCpc: true, cpc: 0.4, remainingClicks: 250 });
  });

  it('edits a publisher (share, minimum, methods, sales rep), audited', async () => {
    const { publishers: found } = (await admin.post('/api/admin/get-accounts', { search: 'jardin' })).json();
    const response = await admin.post('/api/admin/update-publisher', {
      publisherId: found[0].id,
      revenueSharePct: 65,
      minBalanceForPayout: 30,
      authorizedPayoutMethods: ['bitcoin'],
      salesRep: 'admin@demo.test',
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.select().from(publishers).where(eq(publishers.id, found[0].id));
    expect(row).toMatchObject({ revenueShareBp: 6500, minBalanceForPayout: 30_000_000 });
    expect(row!.authorizedPayoutMethods).toEqual(['bitcoin']);
    const audit = await lastAudit('publisher.update');
    expect(audit).toMatchObject({ targetId: found[0].id });
    expect((audit!.details as { changes: Record<string, unknown> }).changes).toHaveProperty('revenueShareBp');
  });

  it('edits a campaign’s price and flags and grants credits through the ledger', async () => {
    const velos = (await admin.post('/api/admin/get-accounts', { search: 'velos' })).json().advertisers[0];
    const campaignId = velos.campaigns[0].id;
    const edited = await admin.post('/api/admin/update-advertiser-campaign', {
      campaignId,
      cpc: 0.55,
      canBuyInBtc: true,
      canBillToPay: true,
      isAutoPilotVisible: false,
    });
    expect(edited.statusCode).toBe(200);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(campaign).toMatchObject({ cpc: 550_000, canBuyInBtc: true, canBillToPay: true, isAutoPilotVisible: false });
    const granted = await admin.post('/api/admin/grant-campaign-credits', { campaignId, kind: 'grant', quantity: 50 });
    expect(granted.json()).toEqual({ status: 'ok', remaining: 300 });
    const grants = await t.db
      .select()
      .from(campaignCredits)
      .where(and(eq(campaignCredits.campaignId, campaignId), eq(campaignCredits.kind, 'grant')));
    expect(grants).toHaveLength(1);
    expect(await creditMismatches(t.db)).toEqual([]);
    expect(await lastAudit('campaign.grantCredits')).toMatchObject({ targetId: campaignId });
    const another = await admin.post('/api/admin/create-campaign', {
      advertiserId: velos.id,
      isCpc: false,
      price: 3,
    });
    expect(another.json()).toMatchObject({ status: 'ok', campaignId: expect.any(Number) });
  });

  it('refuses a price of 0, an unknown campaign, and a negative grant, changing nothing', async () => {
    const velos = (await admin.post('/api/admin/get-accounts', { search: 'velos' })).json().advertisers[0];
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const campaignId = velos.campaigns[0].id;
    expect((await admin.post('/api/admin/update-advertiser-campaign', { campaignId, cpc: 0 })).statusCode).toBe(422);
    expect((await admin.post('/api/admin/update-advertiser-campaign', { campaignId: 999_999 })).statusCode).toBe(404);
    const negative = await admin.post('/api/admin/grant-campaign-credits', { campaignId, kind: 'grant', quantity: -5 });
    expect(negative.statusCode).toBe(422);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('edits a user’s name and language, but never its admin flag', async () => {
    const [claire] = await t.db.select().from(users).where(eq(users.email, 'claire@jardin.test'));
    const ok = await admin.post('/api/admin/update-account-user', {
      userId: claire!.id,
      name: 'Claire D.',
      locale: 'en',
    });
    expect(ok.statusCode).toBe(200);
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const promote = await admin.post('/api/admin/update-account-user', { userId: claire!.id, isAdmin: true });
    expect(promote.statusCode).toBe(422);
    const [adminUser] = await t.db.select().from(users).where(eq(users.email, 'admin@demo.test'));
    const demote = await admin.post('/api/admin/update-account-user', { userId: adminUser!.id, isAdmin: false });
    expect(demote.statusCode).toBe(422);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
    const [after] = await t.db.select().from(users).where(eq(users.id, claire!.id));
    expect(after).toMatchObject({ name: 'Claire D.', locale: 'en', isAdmin: false });
  });
});

describe('moving an account to another user', () => {
  it('moves a publisher to an existing user, who then holds it; the former holder no longer does; audited', async () => {
    const { publishers: found } = (await admin.post('/api/admin/get-accounts', { search: 'jardin' })).json();
    const publisherId = found[0].id;
    const moved = await admin.post('/api/admin/update-publisher', { publisherId, holderEmail: 'Publisher@demo.test' });
    expect(moved.statusCode).toBe(200);
    const [publisherUser] = await t.db.select().from(users).where(eq(users.email, 'publisher@demo.test'));
    const [row] = await t.db.select().from(publishers).where(eq(publishers.id, publisherId));
    expect(row!.userId).toBe(publisherUser!.id);
    const audit = await lastAudit('publisher.update');
    expect((audit!.details as { changes: Record<string, unknown> }).changes).toMatchObject({
      userId: { to: publisherUser!.id },
    });

    const newHolder = await signedInPublisher(t);
    const held = (await newHolder.post('/api/common/user')).json().publisher_ids;
    expect(held).toContain(publisherId);
    const former = t.client();
    await former.signIn('claire@jardin.test');
    const formerView = await former.post('/api/common/user');
    expect(formerView.statusCode === 200 ? formerView.json().publisher_ids : []).not.toContain(publisherId);
  });

  it('moves an advertiser; an unknown e-mail is a 422 that changes nothing', async () => {
    const velos = (await admin.post('/api/admin/get-accounts', { search: 'velos' })).json().advertisers[0];
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const unknown = await admin.post('/api/admin/update-advertiser', {
      advertiserId: velos.id,
      holderEmail: 'nobody@nowhere.test',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().status).toBe('unknownHolder');
    const nullHolder = await admin.post('/api/admin/update-advertiser', { advertiserId: velos.id, holderEmail: null });
    expect(nullHolder.statusCode).toBe(422);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);

    const moved = await admin.post('/api/admin/update-advertiser', {
      advertiserId: velos.id,
      holderEmail: 'advertiser@demo.test',
      brand: 'Vélos Urbains',
    });
    expect(moved.statusCode).toBe(200);
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    const view = (await advertiser.post('/api/common/user')).json();
    expect(view.advertisers).toContainEqual({ id: velos.id, brand: 'Vélos Urbains' });
  });
});

describe('a campaign’s geotargeting in the admin’s editor', () => {
  it('sets the places (deduplicated), shows their summary, and refuses an unknown place changing nothing', async () => {
    const velos = (await admin.post('/api/admin/get-accounts', { search: 'Urbains' })).json().advertisers[0];
    const campaignId = velos.campaigns[0].id;
    expect(velos.campaigns[0]).toMatchObject({ geolocation: [], geolocationStr: '' });
    const set = await admin.post('/api/admin/update-advertiser-campaign', {
      campaignId,
      geolocation: ['FR', 'BE', 'FR'],
    });
    expect(set.statusCode).toBe(200);
    const [row] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(row!.geoTargets).toEqual(['FR', 'BE']);
    const listed = (await admin.post('/api/admin/get-accounts', { search: 'Urbains' })).json().advertisers[0]
      .campaigns[0];
    expect(listed.geolocation).toEqual(['FR', 'BE']);
    expect(listed.geolocationStr).toMatch(/France/);
    expect(listed.geolocationStr).toMatch(/Belgi/);

    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const unknown = await admin.post('/api/admin/update-advertiser-campaign', { campaignId, geolocation: ['XX/NOPE'] });
    expect(unknown.statusCode).toBe(422);
    const notAList = await admin.post('/api/admin/update-advertiser-campaign', { campaignId, geolocation: 'FR' });
    expect(notAList.statusCode).toBe(422);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);

    const cleared = await admin.post('/api/admin/update-advertiser-campaign', { campaignId, geolocation: [] });
    expect(cleared.statusCode).toBe(200);
    const [after] = await t.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
    expect(after!.geoTargets).toEqual([]);
  });
});

// Issue 32: a brand or a name on two lines broke the lines of mails, invoices and exports.
describe('names stay on one line', () => {
  const BREAKERS = [
    ['a line feed', 'Acme\nInc'],
    ['a carriage return', 'Acme\rInc'],
    ['a tab', 'Acme\tInc'],
    ['a NUL', 'Acme\u0000Inc'],
    ['an escape', '\u001b[31mAcme'],
    ['a C1 next line', 'Acme\u0085Inc'],
    ['a line separator', 'Acme\u2028Inc'],
    ['a trailing line feed', 'Acme Inc\n'],
  ];

  async function refusedNaming(path: string, body: Record<string, unknown>, field: string) {
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await admin.post(path, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(field);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  }

  const account = { email: 'lines@lines.test', locale: 'en' };

  it.each(BREAKERS)(
    'create-account refuses a brand with %s (422 naming it), creating nothing',
    async (_label, text) => {
      await refusedNaming(
        '/api/admin/create-account',
        { ...account, kind: 'publisher', newsletter: true, brand: text, name: 'Lina' },
        'brand',
      );
      await refusedNaming(
        '/api/admin/create-account',
        { ...account, kind: 'advertiser', brand: text, name: 'Lina' },
        'brand',
      );
    },
  );

  it.each(BREAKERS)('create-account refuses a user name with %s', async (_label, text) => {
    await refusedNaming(
      '/api/admin/create-account',
      { ...account, kind: 'publisher', newsletter: true, brand: 'Lines', name: text },
      'name',
    );
  });

  it.each(BREAKERS)('update-publisher and update-advertiser refuse a brand with %s', async (_label, text) => {
    const [blog] = await t.db.select().from(publishers).where(eq(publishers.brand, 'Demo Blog'));
    await refusedNaming('/api/admin/update-publisher', { publisherId: blog!.id, brand: text }, 'brand');
    const [nordvik] = await t.db.select().from(advertisers).where(eq(advertisers.brand, 'Nordvik Outdoor'));
    await refusedNaming('/api/admin/update-advertiser', { advertiserId: nordvik!.id, brand: text }, 'brand');
  });

  it.each(BREAKERS)('update-account-user refuses a name with %s', async (_label, text) => {
    const [user] = await t.db.select().from(users).where(eq(users.email, 'advertiser@demo.test'));
    await refusedNaming('/api/admin/update-account-user', { userId: user!.id, name: text }, 'name');
  });

  it('takes names in any script, with accents and inner spaces, trimmed', async () => {
    const response = await admin.post('/api/admin/create-account', {
      ...account,
      kind: 'publisher',
      newsletter: true,
      brand: '  Ñandú 北京 — Café  ',
      name: 'Zoë Ørsted',
    });
    expect(response.statusCode).toBe(200);
    const [publisher] = await t.db.select().from(publishers).where(eq(publishers.id, response.json().accountId));
    expect(publisher!.brand).toBe('Ñandú 北京 — Café');
  });
});
