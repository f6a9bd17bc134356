import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishers, users } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { detailsText } from './audit-details.ts';

/*
 * The audit log's details read in the admin's language and units (issue 36, point 6): euros rather than
 * micro-euros, percents rather than basis points, and key names in words.
 */

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
});

afterAll(async () => {
  await t?.close();
});

async function detailsOf(action: string): Promise<string> {
  const response = await admin.post('/api/admin/get-audit-log', { action });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().entries[0].details;
}

async function setAdminLocale(locale: 'en' | 'fr') {
  await t.db.update(users).set({ locale }).where(eq(users.email, 'admin@demo.test'));
}

describe('get-audit-log details', () => {
  it('shows a coupon in percents and a publisher edit in euros and percents, in English then French', async () => {
    expect((await admin.post('/api/admin/create-coupon', { code: 'AUDIT25', percentOff: 25 })).statusCode).toBe(200);
    const [publisher] = await t.db.select().from(publishers).where(eq(publishers.brand, 'Demo Blog'));
    const edited = await admin.post('/api/admin/update-publisher', {
      publisherId: publisher!.id,
      revenueSharePct: 65.5,
      minBalanceForPayout: 1234.5,
    });
    expect(edited.statusCode, edited.body).toBe(200);

    await setAdminLocale('en');
    // The database keeps a JSON object's keys in an order of its own.
    expect((await detailsOf('coupon.create')).split(', ').sort()).toEqual([
      'code: AUDIT25',
      'discount: 25.00%',
      'free quantity: —',
    ]);
    const publisherEdit = await detailsOf('publisher.update');
    expect(publisherEdit).toContain('revenue share: ');
    expect(publisherEdit).toContain('→ 65.50%');
    expect(publisherEdit).toContain('minimum balance for payout: ');
    expect(publisherEdit).toContain('→ 1,234.50 €');
    expect(publisherEdit).not.toMatch(/Bp|1234500000/);

    await setAdminLocale('fr');
    expect((await detailsOf('coupon.create')).split(', ').sort()).toEqual([
      'code\u202f: AUDIT25',
      'quantité offerte\u202f: —',
      'remise\u202f: 25,00 %',
    ]);
    const enFrançais = await detailsOf('publisher.update');
    expect(enFrançais).toContain('part des revenus\u202f: ');
    expect(enFrançais).toContain('→ 65,50 %');
    expect(enFrançais).toContain('→ 1 234,50 €');
    await setAdminLocale('en');
  });

  it('reads amounts in their currency (a bitcoin sale to the pico-bitcoin, as asked for), and ids as ids', () => {
    const payout = {
      publisherId: 3,
      method: 'bitcoin',
      currency: 'btc',
      amount: 63_491_400,
      amountInCurrency: 2_896_341_463,
      fee: 0,
    };
    expect(detailsText('payout.paid', payout, 'en')).toBe(
      'publisher: #3, method: bitcoin, currency: btc, amount: 63.49 €, amount in currency: ₿0.00289634, fee: 0.00 €',
    );
    expect(detailsText('sale.confirm', { amount: 63_491_400, quantity: 25_000 }, 'fr')).toBe(
      'montant\u202f: 63,49 €, quantité\u202f: 25 000',
    );
    // A bitcoin sale's amount as its e-mail asked for it, to the pico-bitcoin.
    expect(detailsText('sale.confirm', { currency: 'btc', amountInCurrency: 2_896_341_463 }, 'en')).toBe(
      'currency: btc, amount in currency: ₿0.002896341463',
    );
    // Network settings are written in screen units: euros and percents as typed.
    expect(
      detailsText(
        'networkSettings.update',
        { changes: { minBalanceForPayout: { from: 50, to: 75 }, vatPct: { from: 20, to: 5.5 } } },
        'en',
      ),
    ).toBe('minimum balance for payout: 50.00 € → 75.00 €, vat: 20.00% → 5.50%');
    expect(detailsText('ad.publishers.accept', { publisherIds: [1, 2] }, 'en')).toBe('publishers: #1, #2');
  });
});
