import { desc, eq, sql } from 'drizzle-orm';
import { DAY_MS } from '@helium/domain';
import { payoutQuote } from '@helium/domain/payouts';
import { BROUGHT_FORWARD_NOTE, payoutNote } from '@helium/domain/ledger-notes';
import type { Database } from '../client.ts';
import { ledgerEntries, networkSettings, payoutMethods, payouts, publishers } from '../schema/index.ts';
import type { DemoAccounts } from './users.ts';

/**
 * What Demo Blog had earned before the demo's 30 days of history, brought forward into the ledger by an admin
 * adjustment and paid out by PayPal before the history starts. The history gives Demo Blog 53 to 63 EUR in 30
 * days (measured for 60 dates over a year), not enough for a payout of at least the minimum (50 EUR) that leaves
 * more than the minimum: a payout of the history's revenue 10 days ago would have been of about 38 EUR (below the
 * minimum) and would leave about 20 EUR. So the paid payout is of this balance brought forward (an adjustment,
 * not revenue: Accounting's total revenues leave it out), and the 30 days of revenue since make the balance, above
 * 50 EUR. No revenue is invented: the revenue entries are exactly the history's.
 */
export const DEMO_BALANCE_BROUGHT_FORWARD = 64_200_000;

/** Demo Blog's payout details (the wire's IBAN and BIC pass their checks). */
export const DEMO_PAYPAL = { email: 'julien.martin@demo.test' };
export const DEMO_WIRE = {
  bankName: 'Crédit Agricole',
  bic: 'AGRIFRPP',
  iban: 'FR7630006000011234567890189',
  userName: 'Julien Martin',
  userAddress: '8 rue de la République\n69001 Lyon\nFrance',
  userPhoneNumber: '+33 6 12 34 56 78',
};

/**
 * Money out for the demo (docs/server-behaviour.md, "Publisher revenue in the ledger"; docs/decisions.md section 6).
 *
 * 1. The revenue entries of every closed day of the traffic history, as the daily revenue ledger posts them (its
 *    SQL, apps/api/src/features/revenue-ledger/daily-ledger.ts: one per publisher and day with impressions or
 *    revenue, the sums of `daily_ad_stats`, posted at 00:05 the next day, or now for yesterday when seeded in
 *    the first minutes of a day: never in the future), so that the API's job, which posts only the days without an
 *    entry, adds nothing for them.
 * 2. Demo Blog may be paid by PayPal, bank transfer or Bitcoin and has set up PayPal and a bank transfer; its
 *    balance brought forward (see above) was paid out by PayPal in EUR: a `payout` debit of the whole balance and a
 *    paid payout with its reference, the details it went to and its debit. Its balance is then its 30 days of
 *    revenue, above the network's minimum for a payout.
 * 3. La Lettre Tech may be paid by PayPal only and has set up nothing; its balance, 30 days of newsletter revenue
 *    (about 19 EUR), is below the minimum.
 */
export async function seedPayouts(db: Database, accounts: DemoAccounts, now = new Date()): Promise<void> {
  const today = now.toISOString().slice(0, 10);
  await db.execute(sql`
    insert into ${ledgerEntries} (account_type, account_id, kind, amount, day, impressions, created_at)
    select 'publisher', s.publisher_id, 'revenue', sum(s.publisher_revenue), s.day, sum(s.impressions),
      least((s.day + interval '1 day 5 minutes') at time zone 'UTC', ${now.toISOString()}::timestamptz)
    from daily_ad_stats s
    where s.day < ${today}::date
      and not exists (
        select 1 from ${ledgerEntries} l
        where l.account_type = 'publisher' and l.kind = 'revenue' and l.account_id = s.publisher_id and l.day = s.day
      )
    group by s.publisher_id, s.day
    having sum(s.publisher_revenue) <> 0 or sum(s.impressions) > 0
    on conflict (account_type, account_id, day) where kind = 'revenue' do nothing`);

  const past = (days: number) => new Date(now.getTime() - days * DAY_MS);
  await db
    .update(publishers)
    .set({ authorizedPayoutMethods: ['paypal', 'wire', 'bitcoin'] })
    .where(eq(publishers.id, accounts.demoBlogId));
  await db
    .update(publishers)
    .set({ authorizedPayoutMethods: ['paypal'] })
    .where(eq(publishers.id, accounts.newsletterId));
  await db.insert(payoutMethods).values([
    {
      publisherId: accounts.demoBlogId,
      method: 'paypal',
      details: DEMO_PAYPAL,
      updatedBy: accounts.publisherUserId,
      updatedAt: past(45),
    },
    {
      publisherId: accounts.demoBlogId,
      method: 'wire',
      details: DEMO_WIRE,
      updatedBy: accounts.publisherUserId,
      updatedAt: past(45),
    },
  ]);

  // Before the history's first day (30 days ago): the balance brought forward, asked for, paid.
  await db.insert(ledgerEntries).values({
    accountType: 'publisher',
    accountId: accounts.demoBlogId,
    kind: 'adjustment',
    amount: DEMO_BALANCE_BROUGHT_FORWARD,
    note: BROUGHT_FORWARD_NOTE,
    createdBy: accounts.adminUserId,
    createdAt: past(34),
  });
  const [settings] = await db.select().from(networkSettings).orderBy(desc(networkSettings.id)).limit(1);
  if (!settings) throw new Error('Network settings missing');
  const quote = payoutQuote(
    DEMO_BALANCE_BROUGHT_FORWARD,
    'paypal',
    'eur',
    { paypalEur: settings.transferFeePaypalEur, wireEur: settings.transferFeeWireEur },
    { usdToEur: settings.usdToEur, btcToEur: settings.btcToEur },
  );
  if (quote.debit < settings.minBalanceForPayout) {
    throw new Error('The demo payout is below the minimum balance for a payout');
  }
  const [payout] = await db
    .insert(payouts)
    .values({
      publisherId: accounts.demoBlogId,
      method: 'paypal',
      currency: 'eur',
      state: 'paid',
      amount: quote.debit,
      transferFee: quote.fee,
      amountInCurrency: quote.amountInCurrency,
      details: DEMO_PAYPAL,
      reference: 'PAYPAL-9HX27518LT0643925',
      requestedBy: accounts.publisherUserId,
      decidedBy: accounts.adminUserId,
      createdAt: past(33),
      decidedAt: past(32),
    })
    .returning();
  if (!payout) throw new Error('Demo payout missing');
  const [debit] = await db
    .insert(ledgerEntries)
    .values({
      accountType: 'publisher',
      accountId: accounts.demoBlogId,
      kind: 'payout',
      amount: -quote.debit,
      note: payoutNote(payout.id, 'paypal', 'eur'),
      createdBy: accounts.publisherUserId,
      createdAt: payout.createdAt,
    })
    .returning({ id: ledgerEntries.id });
  await db.update(payouts).set({ ledgerEntryId: debit!.id }).where(eq(payouts.id, payout.id));
}
