import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { auditLog, campaigns, networkSettings, publishers } from '@helium/db';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint, demoIds } from '../../../test/call-samples.ts';
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

  // Issue 32: `{"btcToEur": 0.001}` answered 500 but was saved as "0.00", and every purchase then failed.
  it.each([
    ['a bitcoin rate with more decimals than stored', { btcToEur: 0.001 }, 'btcToEur'],
    ['a bitcoin rate a cent too precise', { btcToEur: 61250.005 }, 'btcToEur'],
    ['a dollar rate with more decimals than stored', { usdToEur: 0.000000001 }, 'usdToEur'],
    ['a dollar rate that rounds to nothing', { usdToEur: 1e-9 }, 'usdToEur'],
    ['a dollar rate below its range', { usdToEur: 0.001 }, 'usdToEur'],
    ['a bitcoin rate below its range', { btcToEur: 5 }, 'btcToEur'],
    ['a share with 3 decimals (basis points)', { publisherRevenueSharePct: 62.345 }, 'publisherRevenueSharePct'],
    ['a VAT with 3 decimals', { vatPct: 19.999 }, 'vatPct'],
    ['a fee below the micro-euro', { transferFeeWire: 1.0000001 }, 'transferFeeWire'],
    ['a minimum below the micro-euro', { minBalanceForPayout: 1e-7 }, 'minBalanceForPayout'],
    ['a count with decimals', { minImpressionsForCtrRank: 10.5 }, 'minImpressionsForCtrRank'],
    [
      'a bitcoin address on two lines',
      { bitcoinAddress: 'bc1qar0srrr7xfkvy5l643\nlydnw9re59gtzzwf5mdq' },
      'bitcoinAddress',
    ],
    // Advertisers would send their bitcoins to it: a text or a mistyped address (its checksum broken) is refused.
    ['a text as bitcoin address', { bitcoinAddress: 'hello world <b>' }, 'bitcoinAddress'],
    ['a mistyped bitcoin address', { bitcoinAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr' }, 'bitcoinAddress'],
  ])('refuses %s with a 422 naming the field, and saves nothing', async (_label, body, field) => {
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await admin.post(UPDATE, { vatPct: 20.5, ...body });
    expect(response.statusCode).toBe(422);
    expect(response.json().issues.map((issue: { path: string }) => issue.path)).toEqual([field]);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
    expect((await admin.post(GET)).statusCode).toBe(200);
  });

  it('names the field of a rule across fields in the 422 issues', async () => {
    const response = await admin.post(UPDATE, { publisherRevenueSharePct: 95, salesRepRevenueSharePct: 5.01 });
    expect(response.statusCode).toBe(422);
    expect(response.json().issues).toEqual([
      { path: 'salesRepRevenueSharePct', message: expect.any(String), key: 'sharesAbove100' },
    ]);
  });

  it('stores every number exactly as sent: decimal text for the rates, integer units for euros and percents', async () => {
    const response = await admin.post(UPDATE, {
      usdToEur: 0.12345678,
      btcToEur: 65432.1,
      transferFeePaypal: 0.000001,
      minBalanceForPayout: 123.456789,
      vatPct: 19.99,
      discountAmount1Pct: 0.29,
    });
    expect(response.statusCode).toBe(200);
    const [row] = await t.db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1);
    expect(row).toMatchObject({
      usdToEur: '0.12345678',
      btcToEur: '65432.10',
      transferFeePaypalEur: 1,
      minBalanceForPayout: 123_456_789,
      vatBp: 1999,
      discountAmount1Bp: 29,
    });
    expect(response.json().settings).toMatchObject({ usdToEur: 0.12345678, btcToEur: 65432.1, vatPct: 19.99 });
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

describe('a stored row that breaks the rules (written before them, or by hand)', () => {
  let advertiser: TestClient;
  let campaignId: number;
  let badRowId: number;

  beforeAll(async () => {
    advertiser = t.client();
    await advertiser.signIn('advertiser@demo.test');
    campaignId = (await demoIds(t.db)).campaignId;
    await t.db.update(campaigns).set({ buyQuantity: 200_000 }).where(eq(campaigns.id, campaignId));
  });

  afterAll(async () => {
    if (badRowId) await t.db.delete(networkSettings).where(eq(networkSettings.id, badRowId));
  });

  const purchase = async () => {
    const response = await advertiser.post('/api/advertiser/get-purchase', { campaignExId: campaignId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('never breaks the history, the purchases nor the user: the latest valid row stays in force', async () => {
    const valid = (await admin.post(GET)).json().settings;
    const pricedBefore = await purchase();
    const userBefore = (await advertiser.post('/api/common/user')).json();
    // What `update-network-settings {"btcToEur": 0.001}` stored before issue 32, and a dollar rate of 0.
    const [latest] = await t.db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1);
    const { id: _id, ...copy } = latest!;
    const [bad] = await t.db
      .insert(networkSettings)
      .values({ ...copy, btcToEur: '0.00', usdToEur: '0.00000000', publisherRevenueShareBp: 12_000 })
      .returning();
    badRowId = bad!.id;

    const read = await admin.post(GET);
    expect(read.statusCode, read.body).toBe(200);
    const { settings, history } = read.json();
    expect(settings.id).toBe(valid.id);
    expect(history[0]).toMatchObject({ id: badRowId, btcToEur: 0, usdToEur: 0 });
    // A share above 100 %, and so the two shares together.
    expect(history[0].invalidFields.sort()).toEqual([
      'btcToEur',
      'publisherRevenueSharePct',
      'salesRepRevenueSharePct',
      'usdToEur',
    ]);
    expect(history.find((row: { id: number }) => row.id === valid.id).invalidFields).toEqual([]);

    expect(await purchase()).toEqual(pricedBefore);
    const update = await advertiser.post('/api/advertiser/update-buy', {
      supercampaign: { id: campaignId, buy_impressions: 200_000 },
    });
    expect(update.statusCode, update.body).toBe(200);
    const checkout = await advertiser.post(
      `/api/stripe2/create-checkout-session-campaignex?campaignExId=${campaignId}&currency=usd`,
    );
    expect(checkout.statusCode, checkout.body).toBe(200);
    const user = await advertiser.post('/api/common/user');
    expect(user.statusCode).toBe(200);
    expect(user.json()).toMatchObject({ usd_to_eur: userBefore.usd_to_eur, btc_to_eur: userBefore.btc_to_eur });
  });

  it('takes a change on top of the valid row, and the new row is in force', async () => {
    const { settings } = (await admin.post(GET)).json();
    const response = await admin.post(UPDATE, { vatPct: 18, expectedId: settings.id });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json().settings;
    expect(saved).toMatchObject({ vatPct: 18, usdToEur: settings.usdToEur, btcToEur: settings.btcToEur });
    expect(saved.id).toBeGreaterThan(badRowId);
    expect(saved.invalidFields).toEqual([]);
    expect(saved.changed).toEqual(['vatPct']);
  });
});
