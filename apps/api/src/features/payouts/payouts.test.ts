import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ledgerEntries, payouts, type networkSettings } from '@helium/db';
import { formatAmountInCurrency } from '@helium/domain/invoice';
import { eurosToDollars, eurosToPicoBitcoins } from '@helium/domain/pricing';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { capturedLog } from '../../../test/captured-log.ts';
import { databaseFingerprint } from '../../../test/call-samples.ts';
import {
  accounting,
  NOT_COMPARED,
  PAYPAL,
  payoutAccounts,
  payoutHelpers,
  WIRE,
} from '../../../test/payouts-support.ts';

// A publisher's accounting and payout requests (setup: payouts-support.ts; the admin's side: payouts-admin.test.ts).

let t: TestApp;
let blog: number;
let letter: number;
let cuisine: number;
let publisher: TestClient;
let multi: TestClient;
let settings: typeof networkSettings.$inferSelect;
/** What the server logged at warn level and above, one parsed line each. */
const { lines: logged, logger: warningLog } = capturedLog('warn');

const BITCOIN = { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' };

beforeAll(async () => {
  t = await buildTestApp({ loggerInstance: warningLog });
  ({ blog, letter, cuisine, settings, publisher, multi } = await payoutAccounts(t));
});
afterAll(async () => {
  await t?.close();
});

const { use, balanceOf, addEntry, setBalance, setUpMethods, pendingOf } = payoutHelpers(() => ({ t, publisher }));

describe('Accounting', () => {
  it('the balance is the sum of the ledger and the running balance of the newest line', async () => {
    await use(blog);
    await addEntry(blog, 'revenue', 12_345_678, '2001-01-01');
    await addEntry(blog, 'revenue', 7_654_322, '2001-01-02');
    await addEntry(blog, 'adjustment', -1_000_000);
    const data = await accounting(publisher);
    const balance = await balanceOf(blog);
    expect(data.balance).toBeCloseTo(balance / 1e6, 6);
    expect(data.transactions[0].balance).toBeCloseTo(data.balance, 6);
    expect(data.balanceSign).toBe(balance > 0 ? 'positive' : balance < 0 ? 'negative' : 'zero');
    const [revenues] = await t.db
      .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.accountType, 'publisher'),
          eq(ledgerEntries.accountId, blog),
          eq(ledgerEntries.kind, 'revenue'),
        ),
      );
    expect(data.totalRevenues).toBeCloseTo(Number(revenues!.sum) / 1e6, 6);
    // Newest first, each line's balance is the one before it plus its amount.
    const lines = data.transactions as Array<{ amount: number; balance: number; typeStr: string; dayStr: string }>;
    for (let index = 0; index + 1 < lines.length; index += 1) {
      expect(lines[index]!.balance - lines[index]!.amount).toBeCloseTo(lines[index + 1]!.balance, 6);
    }
    expect(lines.at(-1)!.balance).toBeCloseTo(lines.at(-1)!.amount, 6);
    expect(lines[0]).toMatchObject({ amount: -1, typeStr: 'Adjustment', note: 'test adjustment', impressions: 0 });
    expect(lines[1]).toMatchObject({ amount: 7.654322, typeStr: 'Revenue', dayStr: 'Jan 2, 2001', impressions: 1234 });
  });

  it('says in French what each line is, and what the publisher may be paid by', async () => {
    await addEntry(cuisine, 'revenue', 80_000_000, '2001-01-01');
    await setUpMethods(cuisine, { authorized: ['paypal', 'wire'], configured: { wire: WIRE } });
    const data = await accounting(multi);
    expect(data.publisher).toMatchObject({ id: cuisine, brand: 'Cuisine Facile', payout_paypal: null });
    const revenue = data.transactions.find((line: { dayStr: string }) => line.dayStr === '1 janv. 2001');
    expect(revenue).toMatchObject({ typeStr: 'Revenus', amount: 80 });
    expect(data).toMatchObject({
      canPayout: true,
      canPayoutWire: true,
      canPayoutPaypal: false,
      canPayoutBitcoin: false,
      authorizedPayoutMethods: ['paypal', 'wire'],
      configuredPayoutMethods: ['wire'],
      minBalanceForPayout: settings.minBalanceForPayout / 1e6,
      transferFees: { paypal: settings.transferFeePaypalEur / 1e6, wire: settings.transferFeeWireEur / 1e6 },
      usd_to_eur: settings.usdToEur,
      btc_to_eur: settings.btcToEur,
      pendingPayout: null,
    });
    // Not another publisher's lines: Demo Blog's test adjustment is not here.
    expect(data.transactions.some((line: { note: string | null }) => line.note === 'test adjustment')).toBe(false);
  });

  it('below the minimum, or with nothing configured, nothing can be paid', async () => {
    await use(letter);
    await setUpMethods(letter, { authorized: ['paypal'], configured: { paypal: PAYPAL } });
    await setBalance(letter, 10_000_000);
    expect(await accounting(publisher)).toMatchObject({ canPayout: false, canPayoutPaypal: false, balance: 10 });
    await setUpMethods(letter, { authorized: ['paypal'], configured: { paypal: PAYPAL }, min: 5_000_000 });
    expect(await accounting(publisher)).toMatchObject({
      canPayout: true,
      canPayoutPaypal: true,
      minBalanceForPayout: 5,
    });
    await setUpMethods(letter, { authorized: ['paypal'], configured: {}, min: 5_000_000 });
    expect(await accounting(publisher)).toMatchObject({ canPayout: false, configuredPayoutMethods: [] });
  });
});

describe('request-payout', () => {
  it('ten requests at once: one pending payout, one debit of the whole balance, the others 409', async () => {
    await use(blog);
    await setUpMethods(blog, { authorized: ['paypal', 'wire'], configured: { paypal: PAYPAL } });
    await setBalance(blog, 123_456_789);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        publisher.post('/api/publisher/request-payout', { method: 'paypal', currency: 'eur' }),
      ),
    );
    const statuses = results.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(409)]);
    for (const refused of results.filter((response) => response.statusCode === 409)) {
      expect(refused.json().status).toBe('payoutPending');
    }
    const payoutId = results.find((response) => response.statusCode === 200)!.json().payoutId as number;
    const pending = await pendingOf(blog);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      id: payoutId,
      method: 'paypal',
      currency: 'eur',
      amount: 123_456_789,
      transferFee: settings.transferFeePaypalEur,
      amountInCurrency: 123_456_789 - settings.transferFeePaypalEur,
      rate: null,
      details: PAYPAL,
    });
    const debits = await t.db
      .select()
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.accountType, 'publisher'),
          eq(ledgerEntries.accountId, blog),
          eq(ledgerEntries.kind, 'payout'),
        ),
      );
    const debit = debits.filter((entry) => entry.id === pending[0]!.ledgerEntryId);
    expect(debit).toHaveLength(1);
    expect(debit[0]).toMatchObject({ amount: -123_456_789, note: `payout ${payoutId} by paypal in EUR` });
    expect(debits.filter((entry) => entry.note?.startsWith(`payout ${payoutId} `))).toHaveLength(1);
    expect(await balanceOf(blog)).toBe(0);

    const data = await accounting(publisher);
    expect(data).toMatchObject({ balance: 0, balanceSign: 'zero', canPayout: false });
    expect(data.pendingPayout).toMatchObject({
      id: payoutId,
      method: 'paypal',
      currency: 'eur',
      amountStr: formatAmountInCurrency(123_456_789 - settings.transferFeePaypalEur, 'eur', 'en'),
    });
    expect(data.transactions[0]).toMatchObject({ amount: -123.456789, typeStr: 'Payout', balance: 0 });
  });

  it('the database itself refuses a second pending payout (the partial unique index)', async () => {
    const [first] = await pendingOf(blog);
    const { id: _id, ledgerEntryId: _debit, ...copy } = first!;
    const error = await t.db
      .insert(payouts)
      .values(copy)
      .then(() => null)
      .catch((caught: unknown) => caught as { code?: string; cause?: { code?: string } });
    expect(error?.cause?.code ?? error?.code).toBe('23505');
    expect(await pendingOf(blog)).toHaveLength(1);
  });

  it.each([
    ['methodNotAuthorized', { method: 'bitcoin', currency: 'btc' }],
    ['methodNotConfigured', { method: 'wire', currency: 'eur' }],
    ['currencyNotForMethod', { method: 'paypal', currency: 'btc' }],
    ['belowMinimum', { method: 'paypal', currency: 'usd' }],
  ])('refuses %s with a 409 and changes nothing', async (status, body) => {
    await use(letter);
    await setUpMethods(letter, { authorized: ['paypal', 'wire'], configured: { paypal: PAYPAL } });
    await setBalance(letter, status === 'belowMinimum' ? settings.minBalanceForPayout - 1 : 500_000_000);
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await publisher.post('/api/publisher/request-payout', body);
    expect(response.statusCode).toBe(409);
    expect(response.json().status).toBe(status);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('refuses a second payout while one is pending, and changes nothing', async () => {
    await use(blog);
    await addEntry(blog, 'adjustment', 200_000_000);
    expect(await pendingOf(blog)).toHaveLength(1);
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const response = await publisher.post('/api/publisher/request-payout', { method: 'paypal', currency: 'usd' });
    expect(response.statusCode).toBe(409);
    expect(response.json().status).toBe('payoutPending');
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('pays dollars and bitcoins at the rate of the day, with no fee, and logs amounts the browser showed wrong', async () => {
    await use(letter);
    await setUpMethods(letter, {
      authorized: ['wire', 'bitcoin'],
      configured: { wire: WIRE, bitcoin: BITCOIN },
    });
    await setBalance(letter, 300_000_000);
    const warnings = logged.length;
    const usd = await publisher.post('/api/publisher/request-payout', {
      method: 'wire',
      currency: 'usd',
      balance: 300,
      transferFees: 0,
      amountToTransferInUsdStr: formatAmountInCurrency(eurosToDollars(300_000_000, settings.usdToEur), 'usd', 'en'),
    });
    expect(usd.statusCode).toBe(200);
    expect(logged.slice(warnings).filter((line) => line.msg.startsWith('payouts:'))).toEqual([]);
    const [wire] = await t.db.select().from(payouts).where(eq(payouts.id, usd.json().payoutId));
    expect(wire).toMatchObject({
      currency: 'usd',
      transferFee: 0,
      amount: 300_000_000,
      amountInCurrency: eurosToDollars(300_000_000, settings.usdToEur),
      rate: settings.usdToEur,
      details: WIRE,
    });
    // The same publisher, once that payout is settled, asks in bitcoins with amounts of its own making.
    await t.db.update(payouts).set({ state: 'paid' }).where(eq(payouts.id, wire!.id));
    await setBalance(letter, 300_000_000);
    const btc = await publisher.post('/api/publisher/request-payout', {
      method: 'bitcoin',
      currency: 'btc',
      balance: 1_000_000,
      transferFees: 0,
      amountToTransferInBtcStr: '₿1.00000000',
    });
    expect(btc.statusCode).toBe(200);
    const [coins] = await t.db.select().from(payouts).where(eq(payouts.id, btc.json().payoutId));
    expect(coins).toMatchObject({
      currency: 'btc',
      amount: 300_000_000,
      transferFee: 0,
      amountInCurrency: eurosToPicoBitcoins(300_000_000, settings.btcToEur),
      rate: settings.btcToEur,
    });
    const warning = logged.slice(warnings).find((line) => line.msg.startsWith('payouts:'));
    expect(warning).toMatchObject({ level: 40, publisherId: letter, balance: { shown: 1_000_000, server: 300 } });
    expect(warning!.amountToTransfer).toMatchObject({ shown: '₿1.00000000' });
    await t.db.update(payouts).set({ state: 'paid' }).where(eq(payouts.id, coins!.id));
  });
});
