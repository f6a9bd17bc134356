import { expect } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { ledgerEntries, networkSettings, payoutMethods, payouts, publishers } from '@helium/db';
import { DAILY_LEDGER_JOB } from '../src/features/revenue-ledger/daily-ledger.ts';
import { signedInPublisher, type TestApp, type TestClient } from './helper.ts';
import { publisherId } from './serve-support.ts';

/*
 * What the payouts tests (payouts.test.ts, payouts-admin.test.ts) share, on the demo users: publisher@demo.test (en)
 * holds Demo Blog and La Lettre Tech, multi@demo.test (fr) holds Cuisine Facile. Each test file builds its own test
 * app; each test sets up the ledger and the payout methods it needs itself, so the demo data's payouts do not matter.
 */

export const PAYPAL = { email: 'julien.martin@demo.test' };
export const WIRE = {
  bankName: 'Crédit Agricole',
  bic: 'AGRIFRPP',
  iban: 'FR7630006000011234567890189',
  userName: 'Marc Lefèvre',
  userAddress: '3 rue des Lilas, 69001 Lyon',
  userPhoneNumber: '',
};
/** Compared without a fingerprint: signing in and switching accounts write these legitimately. */
export const NOT_COMPARED = ['sessions', 'login_codes'];

/**
 * The demo accounts and the network's settings the tests work with, and their users' clients signed in
 * (publisher@demo.test working as Demo Blog), once the start-up ledger run is done and no demo payout is pending.
 */
export async function payoutAccounts(t: TestApp) {
  // The start-up run of the daily revenue ledger: done before the tests count entries.
  await t.app.ctx.scheduler.runNow(DAILY_LEDGER_JOB);
  const blog = await publisherId(t.db, 'Demo Blog');
  const letter = await publisherId(t.db, 'La Lettre Tech');
  const cuisine = await publisherId(t.db, 'Cuisine Facile');
  const [settings] = (await t.db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1)) as [
    typeof networkSettings.$inferSelect,
  ];
  const publisher = await signedInPublisher(t, blog);
  const multi = await signedInPublisher(t, cuisine, 'multi@demo.test');
  const admin = t.client();
  await admin.signIn('admin@demo.test');
  // No demo payout is pending for the publishers the tests use: each test asks its own.
  await t.db
    .update(payouts)
    .set({ state: 'paid' })
    .where(and(eq(payouts.state, 'pending'), sql`${payouts.publisherId} in (${blog}, ${letter}, ${cuisine})`));
  return { blog, letter, cuisine, settings, publisher, multi, admin };
}

/**
 * The tests' helpers on a test file's app and publisher@demo.test's client, which `file` answers when called
 * (they are built in the file's beforeAll).
 */
export function payoutHelpers(file: () => { t: TestApp; publisher: TestClient }) {
  /** The publisher account the client of publisher@demo.test works as (it is kept on the user). */
  async function use(id: number) {
    const switched = await file().publisher.post('/api/common/update-user', { key: 'type', value: `1,${id}` });
    expect(switched.statusCode).toBe(200);
  }

  /** One second later on the server's clock, so that entries written one after the other keep their order. */
  function later(): Date {
    const { t } = file();
    t.clock.advance(1000);
    return t.clock.now();
  }

  async function balanceOf(id: number): Promise<number> {
    const { t } = file();
    const [row] = await t.db
      .select({ sum: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)`.mapWith(Number) })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountType, 'publisher'), eq(ledgerEntries.accountId, id)));
    return Number(row!.sum);
  }

  async function addEntry(id: number, kind: 'revenue' | 'adjustment', amount: number, day: string | null = null) {
    const { t } = file();
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
    const { t } = file();
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
    const { t } = file();
    return t.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.publisherId, id), eq(payouts.state, 'pending')));
  }

  return { use, balanceOf, addEntry, setBalance, setUpMethods, pendingOf };
}

export const accounting = async (client: TestClient) => {
  const response = await client.post('/api/publisher/get-accounting', {});
  expect(response.statusCode).toBe(200);
  return response.json();
};
