import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { auditLog, ledgerEntries, payouts, publishers, users, type Database } from '@helium/db';
import { formatDate, formatMicros, microsToEuros, type Locale } from '@helium/domain';
import { formatAmountInCurrency } from '@helium/domain/invoice';
import { payoutNote, payoutReturnedNote } from '@helium/domain/ledger-notes';
import {
  payoutProblem,
  payoutQuote,
  type PayoutCurrency,
  type PayoutProblem,
  type PayoutQuote,
} from '@helium/domain/payouts';
import type { TAdminPayout, TRequestPayoutRequest, TUpdatePayoutRequest } from '@helium/contracts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { Mailer } from '../../infra/mailer.ts';
import {
  detailsAsText,
  findPublisher,
  payoutFacts,
  payoutSetup,
  publisherBalance,
  transferFeesOf,
  type PayoutRow,
  type SettingsRow,
} from './accounting.ts';
import { payoutPaidMail, payoutReturnedMail } from './payout-mails.ts';

/*
 * The life of a payout (docs/decisions.md section 6): asked by the publisher for its whole balance, it is recorded
 * pending with a debit of that balance, in one transaction; an admin marks it paid (it stays debited) or returned
 * (a new entry gives the balance back). A publisher holds at most one pending payout: the publisher row is locked
 * while the request reads and writes, and the partial unique index `payouts_one_pending_per_publisher` refuses a
 * second one whatever happens in code.
 */

type RefusalKey = Exclude<PayoutProblem, 'pendingPayout'> | 'payoutPending';

const REFUSALS: Record<RefusalKey, string> = {
  methodNotAuthorized: 'This payout method is not enabled for your account.',
  methodNotConfigured: 'Enter your payout details for this method in Settings first.',
  currencyNotForMethod: 'This payout method does not pay in this currency.',
  belowMinimum: 'Your balance is below the minimum for a payout.',
  payoutPending: 'A payout is already pending: a new one can be asked once it has been sent.',
};

/** Every refusal is a 409 with its status key (a 403 would read as the gate's refusal). */
function refusal(problem: PayoutProblem | RefusalKey, minimum?: number): HttpError {
  const key: RefusalKey = problem === 'pendingPayout' ? 'payoutPending' : problem;
  const message =
    key === 'belowMinimum' && minimum !== undefined
      ? `A payout needs a balance of at least ${formatMicros(minimum)}.`
      : REFUSALS[key];
  return new HttpError(409, key, message);
}

/** Unique violations (the one pending payout per publisher) are refusals, not failures. */
function isUniqueViolation(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    if ((cause as { code?: string }).code === '23505') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const digitsOf = (text: string) => text.replace(/\D/g, '').replace(/^0+/, '');

/** The amounts the browser showed, compared with the server's: a difference is logged, never used. */
function shownDifferences(
  shown: TRequestPayoutRequest,
  quote: PayoutQuote,
  currency: PayoutCurrency,
  locale: Locale,
): Record<string, unknown> | null {
  const differences: Record<string, unknown> = {};
  const euros = (micros: number) => microsToEuros(micros);
  if (shown.balance !== undefined && Math.abs(shown.balance - euros(quote.debit)) >= 0.005) {
    differences.balance = { shown: shown.balance, server: euros(quote.debit) };
  }
  if (shown.transferFees !== undefined && Math.abs(shown.transferFees - euros(quote.fee)) >= 0.005) {
    differences.transferFees = { shown: shown.transferFees, server: euros(quote.fee) };
  }
  const shownText = {
    eur: shown.amountToTransferInEurStr,
    usd: shown.amountToTransferInUsdStr,
    btc: shown.amountToTransferInBtcStr,
  }[currency];
  const serverText = formatAmountInCurrency(quote.amountInCurrency, currency, locale);
  // Compared digit by digit, so that the separators of another locale are not a difference.
  if (shownText !== undefined && digitsOf(shownText) !== digitsOf(serverText)) {
    differences.amountToTransfer = { shown: shownText, server: serverText };
  }
  return Object.keys(differences).length > 0 ? differences : null;
}

export interface PayoutRequester {
  publisherId: number;
  userId: number;
  locale: Locale;
  ip: string | null;
}

export interface PayoutDeps {
  db: Database;
  log: FastifyBaseLogger;
  now: Date;
}

/**
 * The publisher asks to be paid its whole balance by a method in a currency. The server computes every amount
 * (the transfer fee, the rate of the day); in one transaction, with the publisher row locked, it checks the rules
 * (an authorised and configured method, a currency of that method, no pending payout, the minimum balance), then
 * records the pending payout with the method's details as they are now, and the ledger's debit of the balance.
 */
export async function requestPayout(
  deps: PayoutDeps,
  settings: SettingsRow,
  who: PayoutRequester,
  request: TRequestPayoutRequest,
): Promise<PayoutRow> {
  const { db, log, now } = deps;
  const { method, currency } = request;
  try {
    return await db.transaction(async (tx) => {
      const publisher = await findPublisher(tx, who.publisherId, true);
      const setup = await payoutSetup(tx, publisher, settings);
      const balance = await publisherBalance(tx, who.publisherId);
      const problem = payoutProblem(payoutFacts(setup, balance), method, currency);
      if (problem) throw refusal(problem, setup.minBalanceForPayout);
      const rates = { usdToEur: settings.usdToEur, btcToEur: settings.btcToEur };
      const quote = payoutQuote(balance, method, currency, transferFeesOf(settings), rates);
      if (quote.amountInCurrency <= 0) throw refusal('belowMinimum', setup.minBalanceForPayout);
      const differences = shownDifferences(request, quote, currency, who.locale);
      if (differences) {
        log.warn(
          { publisherId: who.publisherId, method, currency, ...differences },
          'payouts: the browser showed other amounts; the server amounts are used',
        );
      }
      const [payout] = await tx
        .insert(payouts)
        .values({
          publisherId: who.publisherId,
          method,
          currency,
          state: 'pending',
          amount: quote.debit,
          transferFee: quote.fee,
          amountInCurrency: quote.amountInCurrency,
          rate: currency === 'usd' ? settings.usdToEur : currency === 'btc' ? settings.btcToEur : null,
          details: setup.configured.get(method) ?? {},
          requestedBy: who.userId,
          createdAt: now,
        })
        .returning();
      if (!payout) throw new Error('The payout was not recorded');
      const [debit] = await tx
        .insert(ledgerEntries)
        .values({
          accountType: 'publisher',
          accountId: who.publisherId,
          kind: 'payout',
          amount: -quote.debit,
          note: payoutNote(payout.id, payout.method, payout.currency),
          createdBy: who.userId,
          createdAt: now,
        })
        .returning({ id: ledgerEntries.id });
      const [recorded] = await tx
        .update(payouts)
        .set({ ledgerEntryId: debit!.id })
        .where(eq(payouts.id, payout.id))
        .returning();
      await tx.insert(auditLog).values({
        actorUserId: who.userId,
        action: 'payout.request',
        targetType: 'payout',
        targetId: payout.id,
        details: { publisherId: who.publisherId, method, currency, amount: quote.debit, fee: quote.fee },
        ip: who.ip,
        createdAt: now,
      });
      return recorded!;
    });
  } catch (error) {
    // Two requests at once: the second waits for the lock and sees the pending payout; the index is the backstop.
    if (isUniqueViolation(error)) throw refusal('payoutPending');
    throw error;
  }
}

export interface PayoutListRow {
  payout: PayoutRow;
  brand: string;
  email: string;
  locale: Locale;
}

export type PayoutFilter = 'pending' | 'paid' | 'returned' | 'all';

const listSelection = {
  payout: payouts,
  brand: publishers.brand,
  email: users.email,
  locale: users.locale,
};

/** Payouts for the admin's screen: pending ones oldest first (the queue to send), the others newest first. */
export async function listPayouts(db: Database, filter: PayoutFilter): Promise<PayoutListRow[]> {
  return db
    .select(listSelection)
    .from(payouts)
    .innerJoin(publishers, eq(publishers.id, payouts.publisherId))
    .innerJoin(users, eq(users.id, publishers.userId))
    .where(filter === 'all' ? undefined : eq(payouts.state, filter))
    .orderBy(
      filter === 'pending' ? asc(payouts.createdAt) : desc(payouts.createdAt),
      filter === 'pending' ? asc(payouts.id) : desc(payouts.id),
    )
    .limit(500);
}

async function findPayout(db: Database, payoutId: number): Promise<PayoutListRow | null> {
  const [row] = await db
    .select(listSelection)
    .from(payouts)
    .innerJoin(publishers, eq(publishers.id, payouts.publisherId))
    .innerJoin(users, eq(users.id, publishers.userId))
    .where(eq(payouts.id, payoutId));
  return row ?? null;
}

export function adminPayoutView(row: PayoutListRow, locale: Locale): TAdminPayout {
  const { payout } = row;
  return {
    id: payout.id,
    publisherId: payout.publisherId,
    brand: row.brand,
    email: row.email,
    method: payout.method,
    currency: payout.currency,
    state: payout.state,
    amount: microsToEuros(payout.amount),
    transferFee: microsToEuros(payout.transferFee),
    amountToSendStr: formatAmountInCurrency(payout.amountInCurrency, payout.currency, locale),
    details: detailsAsText(payout.details),
    createdAtStr: formatDate(payout.createdAt, locale),
    decidedAtStr: payout.decidedAt ? formatDate(payout.decidedAt, locale) : null,
    reference: payout.reference,
    reason: payout.reason,
  };
}

export interface AdminDecision {
  userId: number;
  ip: string | null;
  now: Date;
}

const notPending = () => new HttpError(409, 'payoutNotPending', 'This payout is no longer pending.');

/**
 * An admin marks a pending payout paid (with the transfer reference) or returned (with the reason: a new entry
 * reverses the debit). A compare-and-set on the state in the transaction that moves the money, so two admins
 * pressing at once change it once; audited; the publisher is told by e-mail in its language (a mail that cannot
 * go out is logged and does not undo the decision).
 */
export async function decidePayout(
  deps: PayoutDeps & { mailer: Mailer },
  request: TUpdatePayoutRequest,
  admin: AdminDecision,
): Promise<PayoutListRow> {
  const { db } = deps;
  const known = await findPayout(db, request.payoutId);
  if (!known) throw notFound('This payout does not exist.');
  if (known.payout.state !== 'pending') throw notPending();
  const decided = await db.transaction(async (tx) => {
    // The same lock as the publisher's request: a returned payout and a new request do not interleave.
    await findPublisher(tx, known.payout.publisherId, true);
    const [moved] = await tx
      .update(payouts)
      .set({
        state: request.action,
        decidedBy: admin.userId,
        decidedAt: admin.now,
        ...(request.action === 'paid' ? { reference: request.reference } : { reason: request.reason }),
      })
      .where(and(eq(payouts.id, request.payoutId), eq(payouts.state, 'pending')))
      .returning();
    if (!moved) throw notPending();
    if (request.action === 'returned') {
      await tx.insert(ledgerEntries).values({
        accountType: 'publisher',
        accountId: moved.publisherId,
        kind: 'payoutReturned',
        amount: moved.amount,
        reversesId: moved.ledgerEntryId,
        note: payoutReturnedNote(moved.id, request.reason),
        createdBy: admin.userId,
        createdAt: admin.now,
      });
    }
    await tx.insert(auditLog).values({
      actorUserId: admin.userId,
      action: `payout.${request.action}`,
      targetType: 'payout',
      targetId: moved.id,
      details: {
        publisherId: moved.publisherId,
        method: moved.method,
        currency: moved.currency,
        amount: moved.amount,
        amountInCurrency: moved.amountInCurrency,
        ...(request.action === 'paid' ? { reference: request.reference } : { reason: request.reason }),
      },
      ip: admin.ip,
      createdAt: admin.now,
    });
    return moved;
  });
  const row = { ...known, payout: decided };
  await mailDecision(deps, row);
  return row;
}

async function mailDecision(deps: PayoutDeps & { mailer: Mailer }, row: PayoutListRow): Promise<void> {
  const { payout, locale } = row;
  const facts = {
    to: row.email,
    locale,
    brand: row.brand,
    method: payout.method,
    amountStr: formatAmountInCurrency(payout.amountInCurrency, payout.currency, locale),
  };
  const message =
    payout.state === 'paid'
      ? payoutPaidMail({ ...facts, reference: payout.reference ?? '' })
      : payoutReturnedMail({
          ...facts,
          reason: payout.reason ?? '',
          restoredStr: formatMicros(payout.amount, { locale }),
        });
  try {
    await deps.mailer.send(message);
  } catch (error) {
    deps.log.error({ err: error, payoutId: payout.id }, 'payouts: the decision e-mail could not be sent');
  }
}
