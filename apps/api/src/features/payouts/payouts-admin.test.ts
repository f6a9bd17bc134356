import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { auditLog, ledgerEntries, payouts, type networkSettings } from '@helium/db';
import { formatAmountInCurrency } from '@helium/domain/invoice';
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

// The admin's payouts to send, and a publisher kept out of another's payouts (setup: payouts-support.ts).

let t: TestApp;
let blog: number;
let cuisine: number;
let publisher: TestClient;
let multi: TestClient;
let admin: TestClient;
let settings: typeof networkSettings.$inferSelect;
/** What the server logged at warn level and above, one parsed line each. */
const { lines: logged, logger: warningLog } = capturedLog('warn');

beforeAll(async () => {
  t = await buildTestApp({ loggerInstance: warningLog });
  ({ blog, cuisine, settings, publisher, multi, admin } = await payoutAccounts(t));
});
afterAll(async () => {
  await t?.close();
});

const { use, balanceOf, setBalance, setUpMethods, pendingOf } = payoutHelpers(() => ({ t, publisher }));

describe('admin: payouts to send', () => {
  let blogPayout: number;
  let cuisinePayout: number;

  beforeAll(async () => {
    // Demo Blog's pending payout as the request-payout tests (payouts.test.ts) leave it: its whole balance of
    // 123.456789 € by PayPal, which the paid test's e-mail names.
    await setUpMethods(blog, { authorized: ['paypal', 'wire'], configured: { paypal: PAYPAL } });
    await setBalance(blog, 123_456_789);
    const own = await publisher.post('/api/publisher/request-payout', { method: 'paypal', currency: 'eur' });
    expect(own.statusCode).toBe(200);
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
