import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { auditLog, ledgerEntries, networkSettings, payoutMethods, payouts, publishers } from '@helium/db';
import { formatAmountInCurrency } from '@helium/domain/invoice';
import { eurosToDollars, eurosToPicoBitcoins } from '@helium/domain/pricing';
import { buildTestApp, signedInPublisher, type TestApp, type TestClient } from '../../../test/helper.ts';
import { databaseFingerprint } from '../../../test/call-samples.ts';
import { publisherId } from '../../../test/serve-support.ts';
import { DAILY_LEDGER_JOB } from '../revenue-ledger/daily-ledger.ts';

/*
 * Accounting, payout requests and the admin's payouts to send, on the demo users: publisher@demo.test (en) holds
 * Demo Blog and La Lettre Tech, multi@demo.test (fr) holds Cuisine Facile. Each test sets up the ledger and the
 * payout methods it needs itself, so the demo data's payouts do not matter.
 */

let t: TestApp;
let blog: number;
let letter: number;
let cuisine: number;
let publisher: TestClient;
let multi: TestClient;
let admin: TestClient;
let settings: typeof networkSettings.$inferSelect;
/** What the server logged at warn level and above, one parsed line each. */
const logged: Array<{ level: number; msg: string; [field: string]: unknown }> = [];

const PAYPAL = { email: 'julien.martin@demo.test' };
const WIRE = {
  bankName: 'Crédit Agricole',
  bic: 'AGRIFRPP',
  iban: 'FR7630006000011234567890189',
  userName: 'Marc Lefèvre',
  userAddress: '3 rue des Lilas, 69001 Lyon',
  userPhoneNumber: '',
};
const BITCOIN = { address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' };
/** Compared without a fingerprint: signing in and switching accounts write these legitimately. */
const NOT_COMPARED = ['sessions', 'login_codes'];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n'))
        if (text) logged.push(JSON.parse(text) as (typeof logged)[number]);
      done();
    },
  });
  t = await buildTestApp({ loggerInstance: pino({ level: 'warn' }, sink) });
  // The start-up run of the daily revenue ledger: done before the tests count entries.
  await t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB);
  blog = await publisherId(t.db, 'Demo Blog');
  letter = await publisherId(t.db, 'La Lettre Tech');
  cuisine = await publisherId(t.db, 'Cuisine Facile');
  [settings] = (await t.db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1)) as [
    typeof settings,
  ];
  publisher = await signedInPublisher(t, blog);
  multi = await signedInPublisher(t, cuisine, 'multi@demo.test');
  admin = t.client();
  await admin.signIn('admin@demo.test');
  // No demo payout is pending for the publishers the tests use: each test asks its own.
  await t.db
    .update(payouts)
    .set({ state: 'paid' })
    .where(and(eq(payouts.state, 'pending'), sql`${payouts.publisherId} in (${blog}, ${letter}, ${cuisine})`));
});
afterAll(async () => {
  await t?.close();
});

/** The publisher account the client of publisher@demo.test works as (it is kept on the user). */
async function use(id: number) {
  const switched = await publisher.post('/api/common/update-user', { key: 'type', value: `1,${id}` });
  expect(switched.statusCode).toBe(200);
}

/** One second later on the server's clock, so that entries written one after the other keep their order. */
function later(): Date {
  t.clock.advance(1000);
  return t.clock.now();
}

async function balanceOf(id: number): Promise<number> {
  const [row] = await t.db
    .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)`.mapWith(Number) })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.accountType, 'publisher'), eq(ledgerEntries.accountId, id)));
  return Number(row!.sum);
}

async function addEntry(id: number, kind: 'revenue' | 'adjustment', amount: number, day: string | null = null) {
  await t.db.insert(ledgerEntries).values({
    accountType: 'publisher',
    accountId: id,
    kind,
    amount,
    day,
    impressions: kind === 'revenue' ? 1234 : 0,
    note: kind === 'adjustment' ? 'test adjustment' : null,
    createdAt: later(),
  });
}

/** Brings the balance to exactly `micros` with an adjustment (a correction is a new entry). */
async function setBalance(id: number, micros: number) {
  const current = await balanceOf(id);
  if (current !== micros) await addEntry(id, 'adjustment', micros - current);
}

async function setUpMethods(
  id: number,
  options: { authorized: string[]; configured: Record<string, object>; min?: number | null },
) {
  await t.db
    .update(publishers)
    .set({ authorizedPayoutMethods: options.authorized, minBalanceForPayout: options.min ?? null })
    .where(eq(publishers.id, id));
  await t.db.delete(payoutMethods).where(eq(payoutMethods.publisherId, id));
  for (const [method, details] of Object.entries(options.configured)) {
    await t.db.insert(payoutMethods).values({ publisherId: id, method: method as 'paypal', details });
  }
}

async function pendingOf(id: number) {
  return t.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.publisherId, id), eq(payouts.state, 'pending')));
}

const accounting = async (client: TestClient) => {
  const response = await client.post('/api/publisher/get-accounting', {});
  expect(response.statusCode).toBe(200);
  return response.json();
};

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

describe('admin: payouts to send', () => {
  let blogPayout: number;
  let cuisinePayout: number;

  beforeAll(async () => {
    [blogPayout] = (await pendingOf(blog)).map((payout) => payout.id) as [number];
    await setUpMethods(cuisine, { authorized: ['wire'], configured: { wire: WIRE } });
    await setBalance(cuisine, 150_000_000);
    const asked = await multi.post('/api/publisher/request-payout', { method: 'wire', currency: 'eur' });
    expect(asked.statusCode).toBe(200);
    cuisinePayout = asked.json().payoutId;
  });

  it('lists the pending payouts with where the money goes', async () => {
    const response = await admin.post('/api/admin/get-payouts', {});
    expect(response.statusCode).toBe(200);
    const list = response.json().payouts as Array<{ id: number; state: string }>;
    expect(list.every((payout) => payout.state === 'pending')).toBe(true);
    expect(list.find((payout) => payout.id === cuisinePayout)).toMatchObject({
      publisherId: cuisine,
      brand: 'Cuisine Facile',
      email: 'multi@demo.test',
      method: 'wire',
      currency: 'eur',
      amount: 150,
      transferFee: settings.transferFeeWireEur / 1e6,
      amountToSendStr: formatAmountInCurrency(150_000_000 - settings.transferFeeWireEur, 'eur', 'en'),
      details: WIRE,
      decidedAtStr: null,
    });
    expect(list.find((payout) => payout.id === blogPayout)).toMatchObject({
      brand: 'Demo Blog',
      email: 'publisher@demo.test',
      details: PAYPAL,
    });
    const paid = await admin.post('/api/admin/get-payouts', { state: 'paid' });
    expect((paid.json().payouts as Array<{ state: string }>).every((payout) => payout.state === 'paid')).toBe(true);
  });

  it('marks a payout paid once (three admins at once), audited, and mails the publisher in English', async () => {
    const mails = t.smtp.messages.length;
    const entries = await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries);
    const results = await Promise.all(
      Array.from({ length: 3 }, () =>
        admin.post('/api/admin/update-payout', { payoutId: blogPayout, action: 'paid', reference: 'PP-7781' }),
      ),
    );
    expect(results.map((response) => response.statusCode).sort()).toEqual([200, 409, 409]);
    const ok = results.find((response) => response.statusCode === 200)!.json();
    expect(ok.payout).toMatchObject({ id: blogPayout, state: 'paid', reference: 'PP-7781', reason: null });
    expect(results.find((response) => response.statusCode === 409)!.json().status).toBe('payoutNotPending');
    // Paid: the debit stays, nothing is added to the ledger.
    expect(await t.db.select({ id: ledgerEntries.id }).from(ledgerEntries)).toHaveLength(entries.length);
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payout.paid'), eq(auditLog.targetId, blogPayout)));
    expect(audits).toHaveLength(1);
    const mail = await t.smtp.waitForMail('publisher@demo.test', mails);
    const sent = formatAmountInCurrency(123_456_789 - settings.transferFeePaypalEur, 'eur', 'en');
    expect(mail.subject).toBe(`Helium Ads: your payout of ${sent} has been sent`);
    expect(mail.text).toContain('Transfer reference: PP-7781');
    expect(mail.text).toContain('Demo Blog');
  });

  it('marks a payout returned: a new entry restores the balance, and the publisher is told in French', async () => {
    const before = await balanceOf(cuisine);
    const mails = t.smtp.messages.length;
    const response = await admin.post('/api/admin/update-payout', {
      payoutId: cuisinePayout,
      action: 'returned',
      reason: 'IBAN refusé par la banque',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().payout).toMatchObject({ state: 'returned', reason: 'IBAN refusé par la banque' });
    expect(await balanceOf(cuisine)).toBe(before + 150_000_000);
    expect(await balanceOf(cuisine)).toBe(150_000_000);
    const [payout] = await t.db.select().from(payouts).where(eq(payouts.id, cuisinePayout));
    const [reversal] = await t.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.kind, 'payoutReturned'), eq(ledgerEntries.accountId, cuisine)));
    expect(reversal).toMatchObject({
      amount: 150_000_000,
      reversesId: payout!.ledgerEntryId,
      accountType: 'publisher',
    });
    const audits = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payout.returned'), eq(auditLog.targetId, cuisinePayout)));
    expect(audits).toHaveLength(1);
    const mail = await t.smtp.waitForMail('multi@demo.test', mails);
    const sent = formatAmountInCurrency(150_000_000 - settings.transferFeeWireEur, 'eur', 'fr');
    expect(mail.subject).toBe(`Helium Ads\u202f: votre versement de ${sent} n'a pas pu être effectué`);
    expect(mail.text).toContain('Motif\u202f: IBAN refusé par la banque');
    expect(mail.text).toContain('Votre solde a été rétabli\u202f: 150,00 €');
    const data = await accounting(multi);
    expect(data).toMatchObject({ balance: 150, pendingPayout: null, canPayoutWire: true });
    expect(data.transactions[0]).toMatchObject({
      typeStr: 'Versement retourné',
      amount: 150,
      balance: 150,
      note: `Versement ${cuisinePayout} retourné\u202f: IBAN refusé par la banque`,
    });
    expect(data.transactions[1].note).toBe(`Versement ${cuisinePayout} par virement bancaire en EUR`);
  });

  it('refuses an action on a payout that is no longer pending (409), or unknown (404), changing nothing', async () => {
    const before = await databaseFingerprint(t.db, NOT_COMPARED);
    const again = await admin.post('/api/admin/update-payout', {
      payoutId: cuisinePayout,
      action: 'paid',
      reference: 'LATE',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().status).toBe('payoutNotPending');
    const returned = await admin.post('/api/admin/update-payout', {
      payoutId: blogPayout,
      action: 'returned',
      reason: 'too late',
    });
    expect(returned.statusCode).toBe(409);
    const unknown = await admin.post('/api/admin/update-payout', { payoutId: 999_999, action: 'paid', reference: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
  });

  it('a returned payout lets the publisher ask again; a mail that cannot go out does not undo the decision', async () => {
    const asked = await multi.post('/api/publisher/request-payout', { method: 'wire', currency: 'eur' });
    expect(asked.statusCode).toBe(200);
    const send = t.app.ctx.mailer.send;
    t.app.ctx.mailer.send = () => Promise.reject(new Error('SMTP down'));
    try {
      const response = await admin.post('/api/admin/update-payout', {
        payoutId: asked.json().payoutId,
        action: 'paid',
        reference: 'VIR-2',
      });
      expect(response.statusCode).toBe(200);
    } finally {
      t.app.ctx.mailer.send = send;
    }
    const [payout] = await t.db.select().from(payouts).where(eq(payouts.id, asked.json().payoutId));
    expect(payout).toMatchObject({ state: 'paid', reference: 'VIR-2' });
    expect(logged.some((line) => line.msg === 'payouts: the decision e-mail could not be sent')).toBe(true);
  });
});

describe('tenants', () => {
  it("a publisher never sees nor changes another's payouts", async () => {
    await use(blog);
    await setUpMethods(cuisine, { authorized: ['wire'], configured: { wire: WIRE } });
    await setBalance(cuisine, 90_000_000);
    const asked = await multi.post('/api/publisher/request-payout', { method: 'wire', currency: 'eur' });
    expect(asked.statusCode).toBe(200);
    const mine = await accounting(publisher);
    expect(mine.publisher.id).toBe(blog);
    expect(mine.pendingPayout).toBeNull();
    const ledgerIds = new Set(
      (
        await t.db
          .select({ id: ledgerEntries.id })
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.accountType, 'publisher'), eq(ledgerEntries.accountId, cuisine)))
      ).map((row) => row.id),
    );
    expect(mine.transactions.some((line: { id: number }) => ledgerIds.has(line.id))).toBe(false);
    // Demo Blog's own request touches Demo Blog only: Cuisine Facile's pending payout stays as it was.
    await setBalance(blog, 60_000_000);
    const own = await publisher.post('/api/publisher/request-payout', { method: 'paypal', currency: 'eur' });
    expect(own.statusCode).toBe(200);
    const [theirs] = await pendingOf(cuisine);
    expect(theirs).toMatchObject({ id: asked.json().payoutId, amount: 90_000_000 });
    expect((await pendingOf(blog))[0]).toMatchObject({ id: own.json().payoutId, amount: 60_000_000 });
    // The admin calls are the admin's only.
    expect((await publisher.post('/api/admin/get-payouts', {})).statusCode).toBe(403);
    const forged = await publisher.post('/api/admin/update-payout', {
      payoutId: asked.json().payoutId,
      action: 'returned',
      reason: 'forged',
    });
    expect(forged.statusCode).toBe(403);
    expect((await pendingOf(cuisine))[0]!.id).toBe(asked.json().payoutId);
  });
});
