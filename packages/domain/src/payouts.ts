import type { Micros } from './money.ts';
import { eurosToDollars, eurosToPicoBitcoins } from './pricing.ts';

/*
 * Publisher payouts (specification 02, sections 2.5 and 9; docs/decisions.md section 6). A payout takes the whole
 * balance: the publisher's ledger gets one debit of the balance; what is sent is the balance less the transfer fee,
 * converted at the network's rate of the day for dollars and bitcoins.
 */

export const PAYOUT_METHODS = ['bitcoin', 'paypal', 'wire'] as const;
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];
export const PAYOUT_CURRENCIES = ['eur', 'usd', 'btc'] as const;
export type PayoutCurrency = (typeof PAYOUT_CURRENCIES)[number];

/** The currencies each method sends: Bitcoin in bitcoins; PayPal and bank transfers in euros or dollars. */
export const CURRENCIES_OF_METHOD: Record<PayoutMethod, readonly PayoutCurrency[]> = {
  bitcoin: ['btc'],
  paypal: ['eur', 'usd'],
  wire: ['eur', 'usd'],
};

/** The network's transfer fees: EUR payouts by PayPal or bank transfer pay one; USD and Bitcoin none (section 2.5). */
export interface TransferFees {
  paypalEur: Micros;
  wireEur: Micros;
}

export function transferFee(method: PayoutMethod, currency: PayoutCurrency, fees: TransferFees): Micros {
  if (currency !== 'eur') return 0;
  if (method === 'paypal') return fees.paypalEur;
  if (method === 'wire') return fees.wireEur;
  return 0;
}

export interface PayoutQuote {
  /** What the ledger is debited: the whole balance. */
  debit: Micros;
  fee: Micros;
  /** The balance less the fee, in euros, and in the currency sent (micro-euros, micro-dollars, pico-bitcoins). */
  netEuros: Micros;
  amountInCurrency: number;
}

/** What a payout of the whole balance sends, by method and currency, at the rates given (decimal strings). */
export function payoutQuote(
  balance: Micros,
  method: PayoutMethod,
  currency: PayoutCurrency,
  fees: TransferFees,
  rates: { usdToEur: string; btcToEur: string },
): PayoutQuote {
  const fee = transferFee(method, currency, fees);
  const netEuros = Math.max(0, balance - fee);
  const amountInCurrency =
    currency === 'usd'
      ? eurosToDollars(netEuros, rates.usdToEur)
      : currency === 'btc'
        ? eurosToPicoBitcoins(netEuros, rates.btcToEur)
        : netEuros;
  return { debit: balance, fee, netEuros, amountInCurrency };
}

export type PayoutProblem =
  'methodNotAuthorized' | 'methodNotConfigured' | 'currencyNotForMethod' | 'belowMinimum' | 'pendingPayout';

export interface PayoutFacts {
  balance: Micros;
  minBalanceForPayout: Micros;
  authorizedMethods: readonly PayoutMethod[];
  configuredMethods: readonly PayoutMethod[];
  hasPendingPayout: boolean;
}

/** Why a publisher cannot be paid by this method in this currency now (null: it can). */
export function payoutProblem(
  facts: PayoutFacts,
  method: PayoutMethod,
  currency: PayoutCurrency,
): PayoutProblem | null {
  if (!facts.authorizedMethods.includes(method)) return 'methodNotAuthorized';
  if (!facts.configuredMethods.includes(method)) return 'methodNotConfigured';
  if (!CURRENCIES_OF_METHOD[method].includes(currency)) return 'currencyNotForMethod';
  if (facts.hasPendingPayout) return 'pendingPayout';
  if (facts.balance < facts.minBalanceForPayout || facts.balance <= 0) return 'belowMinimum';
  return null;
}

/** What can keep every payout from being asked (a currency a method lacks never does). */
export type PayoutBlocker = Exclude<PayoutProblem, 'currencyNotForMethod'>;

/**
 * Why no payout can be asked at all (null: one can), for the reason beside the disabled Payout button: a pending
 * payout or a balance below the minimum first (they block every method), then no method authorised for the account,
 * then none of the authorised ones set up in Settings.
 */
export function payoutBlocker(facts: PayoutFacts): PayoutBlocker | null {
  if (payoutFlags(facts).canPayout) return null;
  if (facts.hasPendingPayout) return 'pendingPayout';
  if (facts.balance < facts.minBalanceForPayout || facts.balance <= 0) return 'belowMinimum';
  if (facts.authorizedMethods.length === 0) return 'methodNotAuthorized';
  return 'methodNotConfigured';
}

/** The screen's flags: canPayout (any method), and canPayoutBitcoin / Paypal / Wire. */
export function payoutFlags(facts: PayoutFacts) {
  const can = (method: PayoutMethod) =>
    CURRENCIES_OF_METHOD[method].some((currency) => payoutProblem(facts, method, currency) === null);
  const canPayoutBitcoin = can('bitcoin');
  const canPayoutPaypal = can('paypal');
  const canPayoutWire = can('wire');
  return {
    canPayout: canPayoutBitcoin || canPayoutPaypal || canPayoutWire,
    canPayoutBitcoin,
    canPayoutPaypal,
    canPayoutWire,
  };
}
