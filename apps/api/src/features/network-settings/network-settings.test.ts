import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { auditLog, networkSettings, publishers } from '@helium/db';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint } from '../../../test/call-samples.ts';
import { publisherId } from '../../../test/serve-support.ts';

/*
 * The admin's network settings: read with their history, changed by a new row and an audit row, refused (nothing
 * written) when invalid; a change shows on a publisher's Accounting.
 */

let t: TestApp;
let admin: TestClient;
let publisher: TestClient;
let blog: number;
const NOT_COMPARED = ['sessions', 'login_codes'];

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
  blog = await publisherId(t.db, 'Demo Blog');
  publisher = await signedInPublisher(t, blog);
});
afterAll(async () => {
  await t?.close();
});

const GET = '/api/admin/get-network-settings';
const UPDATE = '/api/admin/update-network-settings';

async function rowCount() {
  return (await t.db.select({ id: networkSettings.id }).from(networkSettings)).length;
}

describe('get-network-settings', () => {
  it('answers the settings in force in euros and percents, with the history newest first', async () => {
    const response = await admin.post(GET);
    expect(response.statusCode).toBe(200);
    const { settings, history } = response.json();
    expect(settings).toMatchObject({
      publisherRevenueSharePct: expect.any(Number),
      minBalanceForPayout: expect.any(Number),
      transferFeePaypal: expect.any(Number),
      statsDaysAveraged: 7,
    });
    expect(settings.usdToEur).toBeGreaterThan(0);
    expect(history[0].id).toBe(settings.id);
  });

  it('is refused to publishers and advertisers (403) and to the signed out (401)', async () => {
    expect((await publisher.post(GET)).statusCode).toBe(403);
    const advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    expect((await advertiser.post(GET)).statusCode).toBe(403);
    expect((await advertiser.post(UPDATE, { usdToEur: 2 })).statusCode).toBe(403);
    expect((await t.client().post(GET)).statusCode).toBe(401);
  });
});

describe('update-network-settings', () => {
  it('appends a row with the fields sent, dates the rates, keeps the history and audits the change', async () => {
    const before = (await admin.post(GET)).json().settings;
    t.clock.advance(60_000);
    const response = await admin.post(UPDATE, { usdToEur: 0.91, transferFeePaypal: 2.5, expectedId: before.id });
    expect(response.statusCode).toBe(200);
    const { settings } = response.json();
    expect(settings).toMatchObject({ usdToEur: 0.91, transferFeePaypal: 2.5, btcToEur: before.btcToEur });
    expect(settings.id).toBeGreaterThan(before.id);
    expect(settings.changed.sort()).toEqual(['transferFeePaypal', 'usdToEur']);
    expect(new Date(settings.ratesSetAt).getTime()).toBe(t.clock.now().getTime());

    const { history } = (await admin.post(GET)).json();
    expect(history[0].id).toBe(settings.id);
    expect(history[1]).toMatchObject({ id: before.id, usdToEur: before.usdToEur });
    expect(history[0].createdBy).toBe('admin@demo.test');

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'networkSettings.update'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({ targetType: 'network_settings', targetId: settings.id });
    expect(audit!.details).toEqual({
      changes: {
        usdToEur: { from: before.usdToEur, to: 0.91 },
        transferFeePaypal: { from: before.transferFeePaypal, to: 2.5 },
      },
    });
  });

  it('keeps the rates date when no rate changes', async () => {
    const before = (await admin.post(GET)).json().settings;
    t.clock.advance(60_000);
    const { settings } = (await admin.post(UPDATE, { statsDaysAveraged: 14 })).json();
    expect(settings.statsDaysAveraged).toBe(14);
    expect(settings.ratesSetAt).toBe(before.ratesSetAt);
  });

  it('shows on the publisher screens at once: transfer fees and minimum balance in Accounting', async () => {
    await t.db.update(publishers).set({ minBalanceForPayout: null }).where(eq(publishers.id, blog));
    const response = await admin.post(UPDATE, { transferFeeWire: 7.25, minBalanceForPayout: 42 });
    expect(response.statusCode).toBe(200);
    const accounting = (await publisher.post('/api/publisher/get-accounting')).json();
    expect(accounting.transferFees.wire).toBe(7.25);
    expect(accounting.minBalanceForPayout).toBe(42);
  });

  it.each([
    ['a negative share', { publisherRevenueSharePct: -1 }],
    ['a share above 100 %', { salesRepRevenueSharePct: 100.5 }],
    ['shares above 100 % together', { publisherRevenueSharePct: 80, salesRepRevenueSharePct: 30 }],
    ['a rate of 0', { usdToEur: 0 }],
    ['a negative bitcoin rate', { btcToEur: -5 }],
    ['a negative fee', { transferFeeWire: -1 }],
    ['thresholds going down', { discountThreshold1Pct: 60, discountThreshold2Pct: 50 }],
    ['no setting', {}],
    ['an unknown setting', { isAdmin: true }],
    ['a text for a number', { vatPct: '20' }],
    ['0 days averaged', { statsDaysAveraged: 0 }],
    ['an unknown late-payment action', { latePaymentAction: 'keep' }],
  ])('refuses %s with a 4xx and changes nothing', async (_label, body) => {
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const count = await rowCount();
    const response = await admin.post(UPDATE, body);
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().message).toEqual(expect.any(String));
    expect(await rowCount()).toBe(count);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('refuses a change made on settings another admin changed since (409), and writes nothing', async () => {
    const { settings } = (await admin.post(GET)).json();
    await admin.post(UPDATE, { vatPct: 19 });
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await admin.post(UPDATE, { vatPct: 21, expectedId: settings.id });
    expect(response.statusCode).toBe(409);
    expect(response.json().status).toBe('settingsChanged');
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('writes nothing for a change of nothing', async () => {
    const { settings } = (await admin.post(GET)).json();
    const count = await rowCount();
    const response = await admin.post(UPDATE, { vatPct: settings.vatPct });
    expect(response.statusCode).toBe(200);
    expect(await rowCount()).toBe(count);
  });

  it('says what to do with a payment for a cancelled sale: credit by default, refund when set (audited)', async () => {
    expect((await admin.post(GET)).json().settings.latePaymentAction).toBe('credit');
    const response = await admin.post(UPDATE, { latePaymentAction: 'refund' });
    expect(response.statusCode).toBe(200);
    expect(response.json().settings).toMatchObject({ latePaymentAction: 'refund', changed: ['latePaymentAction'] });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'networkSettings.update'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit!.details).toEqual({ changes: { latePaymentAction: { from: 'credit', to: 'refund' } } });
    expect((await admin.post(UPDATE, { latePaymentAction: 'credit' })).statusCode).toBe(200);
  });

  it('keeps both of two concurrent changes of different fields', async () => {
    const [a, b] = await Promise.all([
      admin.post(UPDATE, { minImpressionsToAutoPilot: 1234 }),
      admin.post(UPDATE, { minImpressionsForCtrRank: 567 }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const { settings } = (await admin.post(GET)).json();
    expect(settings).toMatchObject({ minImpressionsToAutoPilot: 1234, minImpressionsForCtrRank: 567 });
  });
});
