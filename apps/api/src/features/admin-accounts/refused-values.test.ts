import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint } from '../../../test/call-samples.ts';
import { publisherId } from '../../../test/serve-support.ts';

/*
 * Issue 36, points 2 and 8: what the admin forms sent and the server took (a campaign at 0.00, trial credits of
 * -500), brought into range (a coupon's -5 % or 150 %) or cut (a 300-character code), and text of any length (a
 * 20,000-character billing address) is refused with a 422 whose issues name the field, its reason (`key`) and the
 * limit (`values`), and nothing is written.
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

interface Issue {
  path: string;
  message: string;
  key?: string;
  values?: Record<string, number | string>;
}

/** Sends a call that must be refused: its status, and its issues; nothing in the database changed. */
async function refused(client: TestClient, path: string, body: Record<string, unknown>, status = 422) {
  const before = await databaseFingerprint(t.db, NOT_COMPARED);
  const response = await client.post(path, body);
  expect(response.statusCode).toBe(status);
  expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  return (response.json() as { issues?: Issue[] }).issues ?? [];
}

const advertiser = (extra: Record<string, unknown>) => ({
  kind: 'advertiser',
  brand: 'Refused',
  email: 'refused@refused.test',
  name: 'Rita',
  locale: 'en',
  ...extra,
});

describe('create-account: an advertiser', () => {
  it.each([
    ['0', 0, { key: 'above', values: { min: 0 } }],
    ['negative', -2.5, { key: 'above', values: { min: 0 } }],
    ['missing', undefined, { key: 'required' }],
    ['text', '2,5', { key: 'number' }],
    ['with more than micro-euros', 2.0000001, { key: 'decimals', values: { decimals: 6 } }],
  ])('refuses a price %s, naming campaign.price, and creates nothing', async (_label, price, reason) => {
    const issues = await refused(admin, '/api/admin/create-account', advertiser({ campaign: { isCpc: false, price } }));
    expect(issues).toEqual([expect.objectContaining({ path: 'campaign.price', ...reason })]);
  });

  it.each([
    ['negative', -500, { key: 'atLeast', values: { min: 0 } }],
    ['fractional', 2.5, { key: 'wholeNumber' }],
  ])('refuses %s trial credits, naming trialCredits, and creates nothing', async (_label, trialCredits, reason) => {
    const issues = await refused(
      admin,
      '/api/admin/create-account',
      advertiser({ campaign: { isCpc: false, price: 2.5 }, trialCredits }),
    );
    expect(issues).toEqual([expect.objectContaining({ path: 'trialCredits', ...reason })]);
  });

  it('refuses a brand over 120 characters, saying how many were sent, never the text itself', async () => {
    const brand = 'B'.repeat(121);
    const issues = await refused(admin, '/api/admin/create-account', advertiser({ brand }));
    expect(issues).toEqual([
      expect.objectContaining({ path: 'brand', key: 'tooLong', values: { max: 120, typed: 121 } }),
    ]);
    expect(JSON.stringify(issues)).not.toContain(brand);
  });

  it('takes trial credits of 0 and a price above 0', async () => {
    const response = await admin.post(
      '/api/admin/create-account',
      advertiser({ email: 'zero-trial@refused.test', campaign: { isCpc: true, price: 0.05 }, trialCredits: 0 }),
    );
    expect(response.json()).toMatchObject({ status: 'ok', kind: 'advertiser' });
  });
});

describe('the other admin forms', () => {
  async function velos() {
    const created = await admin.post(
      '/api/admin/create-account',
      advertiser({ brand: 'Velos Refused', email: 'velos@refused.test', campaign: { isCpc: true, price: 0.4 } }),
    );
    const { accountId, campaignId } = created.json() as { accountId: number; campaignId: number };
    return { advertiserId: accountId, campaignId };
  }

  it('create-campaign, update-advertiser-campaign and grant-campaign-credits name the field at fault', async () => {
    const { advertiserId, campaignId } = await velos();
    expect(await refused(admin, '/api/admin/create-campaign', { advertiserId, isCpc: false, price: 0 })).toEqual([
      expect.objectContaining({ path: 'price', key: 'above' }),
    ]);
    // The price of the campaign's model (CPC here) is the one that must stay above 0.
    expect(await refused(admin, '/api/admin/update-advertiser-campaign', { campaignId, cpc: 0 })).toEqual([
      expect.objectContaining({ path: 'cpc', key: 'above', values: { min: 0 } }),
    ]);
    expect(
      await refused(admin, '/api/admin/grant-campaign-credits', { campaignId, kind: 'trial', quantity: -500 }),
    ).toEqual([expect.objectContaining({ path: 'quantity', key: 'above', values: { min: 0 } })]);
  });

  it('update-advertiser names an unknown holder or sales rep, and a negative invoice limit', async () => {
    const { advertiserId } = await velos();
    expect(
      await refused(admin, '/api/admin/update-advertiser', { advertiserId, holderEmail: 'nobody@nowhere.test' }),
    ).toEqual([
      expect.objectContaining({ path: 'holderEmail', key: 'unknownUser', values: { email: 'nobody@nowhere.test' } }),
    ]);
    expect(
      await refused(admin, '/api/admin/update-advertiser', { advertiserId, salesRep: 'nobody@nowhere.test' }),
    ).toEqual([expect.objectContaining({ path: 'salesRep', key: 'unknownUser' })]);
    expect(await refused(admin, '/api/admin/update-advertiser', { advertiserId, invoiceLimit: -1 })).toEqual([
      expect.objectContaining({ path: 'invoiceLimit', key: 'atLeast', values: { min: 0 } }),
    ]);
  });

  it('update-publisher refuses a share with more decimals than stored (never rounded) or a web site without domain', async () => {
    const blog = await publisherId(t.db, 'Demo Blog');
    expect(await refused(admin, '/api/admin/update-publisher', { publisherId: blog, revenueSharePct: 12.345 })).toEqual(
      [expect.objectContaining({ path: 'revenueSharePct', key: 'decimals', values: { decimals: 2 } })],
    );
    expect(await refused(admin, '/api/admin/update-publisher', { publisherId: blog, domain: null })).toEqual([
      expect.objectContaining({ path: 'domain', key: 'domainNeeded' }),
    ]);
  });

  it('update-placements names the placement whose selector does not parse, or is too long', async () => {
    const blog = await publisherId(t.db, 'Demo Blog');
    const placement = { position: 'inside', formatIds: [], device: 'all' };
    const body = (selector: string) => ({
      publisherId: blog,
      placements: [
        { ...placement, selector: '#ok' },
        { ...placement, selector },
      ],
    });
    expect(await refused(admin, '/api/admin/update-placements', body('aside['))).toEqual([
      expect.objectContaining({ path: 'placements.1.selector', key: 'cssSelector' }),
    ]);
    expect(await refused(admin, '/api/admin/update-placements', body(`#${'a'.repeat(300)}`))).toEqual([
      expect.objectContaining({ path: 'placements.1.selector', key: 'tooLong', values: { max: 300, typed: 301 } }),
    ]);
  });

  it('update-network-settings names the field of a rule across fields, and an emptied one', async () => {
    expect(
      await refused(admin, '/api/admin/update-network-settings', {
        publisherRevenueSharePct: 80,
        salesRepRevenueSharePct: 30,
      }),
    ).toEqual([expect.objectContaining({ path: 'salesRepRevenueSharePct', key: 'sharesAbove100' })]);
    expect(await refused(admin, '/api/admin/update-network-settings', { usdToEur: null })).toEqual([
      expect.objectContaining({ path: 'usdToEur', key: 'required' }),
    ]);
    expect(await refused(admin, '/api/admin/update-network-settings', { sellerDetails: 'x'.repeat(1001) })).toEqual([
      expect.objectContaining({ path: 'sellerDetails', key: 'tooLong', values: { max: 1000, typed: 1001 } }),
    ]);
  });
});

describe('create-coupon', () => {
  it.each([
    ['-5 %', { code: 'MINUS5', percentOff: -5 }, { path: 'percentOff', key: 'atLeast', values: { min: 1 } }],
    ['150 %', { code: 'PLUS150', percentOff: 150 }, { path: 'percentOff', key: 'atMost', values: { max: 100 } }],
    ['12.5 %', { code: 'HALF', percentOff: 12.5 }, { path: 'percentOff', key: 'wholeNumber' }],
    [
      'a 300-character code',
      { code: 'C'.repeat(300), percentOff: 10 },
      { path: 'code', key: 'tooLong', values: { max: 40, typed: 300 } },
    ],
    ['a code with a space', { code: 'TWO WORDS', percentOff: 10 }, { path: 'code', key: 'couponCode' }],
    ['no percent nor credits', { code: 'NOTHING' }, { path: 'percentOff', key: 'couponKind' }],
    [
      'an expiry in the year 0, which the database has not',
      { code: 'YEARZERO', percentOff: 10, expiresAt: '0000-01-01T00:00:00Z' },
      { path: 'expiresAt', key: 'date' },
    ],
  ])(
    'refuses %s, naming the field, and creates nothing (never brought into range nor cut)',
    async (_label, body, issue) => {
      const issues = await refused(admin, '/api/admin/create-coupon', body);
      expect(issues).toEqual([expect.objectContaining(issue)]);
    },
  );

  it('names the code when another coupon has it', async () => {
    expect((await admin.post('/api/admin/create-coupon', { code: 'TAKEN36', percentOff: 10 })).statusCode).toBe(200);
    expect(await refused(admin, '/api/admin/create-coupon', { code: 'taken36', percentOff: 5 }, 409)).toEqual([
      expect.objectContaining({ path: 'code', key: 'codeTaken' }),
    ]);
  });
});

describe('an advertiser’s billing address (point 8)', () => {
  it('refuses 20,000 characters, naming data.address and the limit, and keeps the address as it was', async () => {
    const advertiserClient = t.client();
    await advertiserClient.signIn('advertiser@demo.test');
    const issues = await refused(advertiserClient, '/api/advertiser/save-settings', {
      field: 'billingInformation',
      data: { address: 'x'.repeat(20_000) },
    });
    expect(issues).toEqual([
      expect.objectContaining({ path: 'data.address', key: 'tooLong', values: { max: 2000, typed: 20_000 } }),
    ]);
  });
});
