import type { TAccounting, TRequestPayoutRequest } from '@helium/contracts';
import { formatMoney, type Locale } from '@helium/domain/format';
import { eurosToMicros, MICROS_PER_EURO } from '@helium/domain/money';
import { formatAmountInCurrency } from '@helium/domain/invoice';
import {
  CURRENCIES_OF_METHOD,
  PAYOUT_METHODS,
  payoutBlocker,
  payoutProblem,
  type PayoutBlocker,
  type PayoutFacts,
  payoutQuote,
  type PayoutCurrency,
  type PayoutMethod,
  type PayoutProblem,
  type PayoutQuote,
  type TransferFees,
} from '@helium/domain/payouts';

/** How long a transfer takes to arrive, by currency (specification 02, section 2.5): the key of its text. */
export const TRANSFER_TIME_KEY = {
  usd: 'accounting.transferTime.usd',
  btc: 'accounting.transferTime.btc',
  eur: 'accounting.transferTime.eur',
} as const satisfies Record<PayoutCurrency, string>;

/** One entry of the payout menu: a method in one of its currencies, with what the publisher would receive. */
export interface PayoutOption {
  method: PayoutMethod;
  currency: PayoutCurrency;
  /** The method's flag from the server (canPayoutBitcoin, canPayoutPaypal, canPayoutWire). */
  enabled: boolean;
  /** Why it is dimmed, when the rules tell (null when enabled or when only the server knows). */
  problem: PayoutProblem | null;
  /** The transfer fee (EUR by PayPal or wire), as text; null when there is none. */
  feeStr: string | null;
  /** What is sent, in the currency sent, as text; null when the rates cannot convert it. */
  amountStr: string | null;
}

const METHOD_FLAG = {
  bitcoin: 'canPayoutBitcoin',
  paypal: 'canPayoutPaypal',
  wire: 'canPayoutWire',
} as const satisfies Record<PayoutMethod, keyof TAccounting>;

/** Whether the menu's entries of a method are active (section 2.5: dimmed unless its flag is set). */
export function canPayoutBy(accounting: TAccounting, method: PayoutMethod): boolean {
  return accounting[METHOD_FLAG[method]];
}

function feesOf(accounting: TAccounting): TransferFees {
  return {
    paypalEur: eurosToMicros(accounting.transferFees.paypal),
    wireEur: eurosToMicros(accounting.transferFees.wire),
  };
}

/** The quote of a payout of the whole balance, or null when a rate is missing or zero. */
export function quoteOf(accounting: TAccounting, method: PayoutMethod, currency: PayoutCurrency): PayoutQuote | null {
  try {
    return payoutQuote(eurosToMicros(Math.max(0, accounting.balance)), method, currency, feesOf(accounting), {
      usdToEur: accounting.usd_to_eur,
      btcToEur: accounting.btc_to_eur,
    });
  } catch {
    return null;
  }
}

/** A quote's amount in its own currency (euros and dollars with 2 decimals, bitcoins with 8), as text. */
export function quoteAmountStr(quote: PayoutQuote, currency: PayoutCurrency, locale: Locale): string {
  // The server writes a payout's amount with the same function (accounting's pendingPayout.amountStr).
  return formatAmountInCurrency(quote.amountInCurrency, currency, locale);
}

function payoutFactsOf(accounting: TAccounting): PayoutFacts {
  return {
    balance: eurosToMicros(accounting.balance),
    minBalanceForPayout: eurosToMicros(accounting.minBalanceForPayout),
    authorizedMethods: accounting.authorizedPayoutMethods,
    configuredMethods: accounting.configuredPayoutMethods,
    hasPendingPayout: accounting.pendingPayout !== null,
  };
}

/** Why the Payout button is disabled (null when the server says a payout can be asked). */
export function payoutBlockerOf(accounting: TAccounting): PayoutBlocker | null {
  return accounting.canPayout ? null : payoutBlocker(payoutFactsOf(accounting));
}

/** The payout menu: every method with each of its currencies, in the order of the domain. */
export function payoutOptions(accounting: TAccounting, locale: Locale): PayoutOption[] {
  const facts = payoutFactsOf(accounting);
  return PAYOUT_METHODS.flatMap((method) =>
    CURRENCIES_OF_METHOD[method].map((currency): PayoutOption => {
      const enabled = canPayoutBy(accounting, method);
      const quote = quoteOf(accounting, method, currency);
      return {
        method,
        currency,
        enabled,
        problem: enabled ? null : payoutProblem(facts, method, currency),
        feeStr: quote && quote.fee > 0 ? formatMoney(quote.fee / MICROS_PER_EURO, { locale, currency: 'eur' }) : null,
        amountStr: quote ? quoteAmountStr(quote, currency, locale) : null,
      };
    }),
  );
}

/**
 * What the screen asks for: the method and currency, with the balance, the fee and the amounts it showed in each
 * currency (the server computes its own and logs any difference).
 */
export function payoutRequest(
  accounting: TAccounting,
  method: PayoutMethod,
  currency: PayoutCurrency,
  locale: Locale,
): TRequestPayoutRequest {
  const strOf = (inCurrency: PayoutCurrency) => {
    const quote = quoteOf(accounting, method, inCurrency);
    return quote ? quoteAmountStr(quote, inCurrency, locale) : undefined;
  };
  const quote = quoteOf(accounting, method, currency);
  return {
    balance: accounting.balance,
    transferFees: quote ? quote.fee / MICROS_PER_EURO : 0,
    amountToTransferInEurStr: strOf('eur'),
    amountToTransferInUsdStr: strOf('usd'),
    amountToTransferInBtcStr: strOf('btc'),
    method,
    currency,
  };
}

/** The colour of the balance by its sign. */
export function balanceColour(sign: TAccounting['balanceSign']): string {
  switch (sign) {
    case 'positive':
      return 'teal';
    case 'negative':
      return 'red';
    default:
      return 'dimmed';
  }
}
