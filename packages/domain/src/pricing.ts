import { impressionsCost } from './revenue.ts';
import type { Micros } from './money.ts';

/*
 * What a purchase of credits costs (specification 02, sections 2.2, 5 and 9). Every amount is an integer: euros
 * and dollars in micro-units, bitcoin in pico-bitcoins (1e-12 BTC, the 12 decimals of the bitcoin confirmation).
 *
 * Rounding, stated once: a price is the delivered cost of the quantity (revenue.ts, so a purchase's impressions
 * add up to its price); a discount is a whole number of basis points of that price, rounded down, so the buyer is
 * never charged a fraction more than the percentage says, and what is charged is rounded down to the cent; a
 * conversion rounds halves up, to the cent for dollars and to the pico-bitcoin for bitcoins.
 */

/** How a campaign is priced, as every screen and mail names it: per click, or per thousand impressions. */
export function pricingName(campaign: { isCpc: boolean }): 'CPC' | 'CPM' {
  return campaign.isCpc ? 'CPC' : 'CPM';
}

/** Slider defaults when a campaign has none of its own (section 5). */
export const BUY_IMPRESSIONS_STEP_DEFAULT = 100_000;
export const BUY_CLICKS_MAX_DEFAULT = 10_000;
export const BUY_CLICKS_STEP_DEFAULT = 500;
/** An impression-priced campaign's largest purchase when it has none of its own. */
export const BUY_IMPRESSIONS_MAX_DEFAULT = 2_000_000;

/** Pico-bitcoins in one bitcoin. */
export const PICO_BTC_PER_BTC = 1_000_000_000_000;

/** Basis points in 100 %. */
const WHOLE_BP = 10_000;

/** The network's discount tiers: thresholds as shares of the maximum purchase, amounts as discounts (both bp). */
export interface DiscountTiers {
  /** From this share of the maximum (inclusive) the tier's amount applies: ascending, e.g. 2500, 5000, 10000. */
  thresholdsBp: readonly [number, number, number];
  /** discountAmountPct1/2/3 in basis points, e.g. 500, 1000, 1500. */
  amountsBp: readonly [number, number, number];
}

/** What a campaign sells and at which price. */
export interface PurchaseTerms {
  isCpc: boolean;
  /** Micro-euros per 1,000 impressions (impression-priced). */
  cpm: Micros;
  /** Micro-euros per click (click-priced). */
  cpc: Micros;
  /** The largest purchase (impressions or clicks) and the slider's step. */
  max: number;
  step: number;
  doNotDiscount: boolean;
}

/** The slider's limits for a campaign, with the section 5 defaults for what it does not set. */
export function purchaseLimits(campaign: { isCpc: boolean; buyMax: number | null; buyStep: number | null }): {
  max: number;
  step: number;
} {
  if (campaign.isCpc) {
    return { max: campaign.buyMax ?? BUY_CLICKS_MAX_DEFAULT, step: campaign.buyStep ?? BUY_CLICKS_STEP_DEFAULT };
  }
  return {
    max: campaign.buyMax ?? BUY_IMPRESSIONS_MAX_DEFAULT,
    step: campaign.buyStep ?? BUY_IMPRESSIONS_STEP_DEFAULT,
  };
}

export type QuantityProblem = 'notPositive' | 'notAStep' | 'aboveMax';

/** Why a quantity cannot be bought (null: it can): a positive multiple of the step, at most the maximum. */
export function quantityProblem(quantity: number, terms: Pick<PurchaseTerms, 'max' | 'step'>): QuantityProblem | null {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) return 'notPositive';
  if (quantity % terms.step !== 0) return 'notAStep';
  if (quantity > terms.max) return 'aboveMax';
  return null;
}

/** The full price of a quantity: impressions x CPM / 1000, or clicks x CPC. */
export function fullPrice(quantity: number, terms: Pick<PurchaseTerms, 'isCpc' | 'cpm' | 'cpc'>): Micros {
  return terms.isCpc ? quantity * terms.cpc : impressionsCost(quantity, terms.cpm);
}

/**
 * The tier discount (bp) for a quantity: below threshold 1 none, from 1 to below 2 amount 1, from 2 to below 3
 * amount 2, from 3 on amount 3 (section 9); none when the campaign says do_not_discount.
 */
export function tierDiscountBp(
  quantity: number,
  terms: Pick<PurchaseTerms, 'max' | 'doNotDiscount'>,
  tiers: DiscountTiers,
): number {
  if (terms.doNotDiscount || terms.max <= 0) return 0;
  let discount = 0;
  tiers.thresholdsBp.forEach((thresholdBp, tier) => {
    // quantity / max >= threshold, in integers.
    if (quantity * WHOLE_BP >= thresholdBp * terms.max) discount = tiers.amountsBp[tier] ?? 0;
  });
  return discount;
}

/** Micro-units in one cent: what is charged (a card, an invoice) is a whole number of cents. */
export const MICROS_PER_CENT = 10_000;

/** A price less a discount in basis points (capped at 100 %), rounded down to the cent. */
export function discounted(price: Micros, discountBp: number): Micros {
  const bp = Math.min(WHOLE_BP, Math.max(0, discountBp));
  const cents = Math.floor((price * (WHOLE_BP - bp)) / (WHOLE_BP * MICROS_PER_CENT));
  return cents * MICROS_PER_CENT;
}

/**
 * A rate stored as a decimal string ("0.92000000" euros per dollar, "61250.00" euros per bitcoin) as an exact
 * fraction, so that conversions do not go through floating point.
 */
function rateFraction(rate: string): { numerator: bigint; denominator: bigint } {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(rate.trim());
  if (!match) throw new RangeError(`Not a rate: ${rate}`);
  const fraction = match[2] ?? '';
  const numerator = BigInt(`${match[1]}${fraction}`);
  if (numerator === 0n) throw new RangeError(`A rate cannot be zero: ${rate}`);
  return { numerator, denominator: 10n ** BigInt(fraction.length) };
}

/** amount * multiplier / rate / unit, rounded to the nearest unit (halves up), times unit. */
function convert(micros: Micros, rate: string, multiplier: bigint, unit: bigint): number {
  const { numerator, denominator } = rateFraction(rate);
  const scaled = BigInt(micros) * multiplier * denominator;
  const divisor = numerator * unit;
  return Number(((scaled * 2n + divisor) / (divisor * 2n)) * unit);
}

/** Micro-euros in micro-dollars at `usdToEur` euros per dollar, to the cent. */
export function eurosToDollars(micros: Micros, usdToEur: string): number {
  return convert(micros, usdToEur, 1n, BigInt(MICROS_PER_CENT));
}

/** Micro-euros in pico-bitcoins at `btcToEur` euros per bitcoin. */
export function eurosToPicoBitcoins(micros: Micros, btcToEur: string): number {
  return convert(micros, btcToEur, 1_000_000n, 1n);
}

/** A coupon as it applies to a purchase: a percentage off (bp) or nothing (free credits are granted once). */
export interface CouponEffect {
  percentOffBp: number;
}

export interface PriceBreakdownInput {
  quantity: number;
  terms: PurchaseTerms;
  tiers: DiscountTiers;
  extraDiscountForBtcBp: number;
  extraDiscountForUsdBp: number;
  /** An unused percent-off coupon of the advertiser, added to the tier discount. */
  coupon: CouponEffect | null;
  rates: { usdToEur: string; btcToEur: string };
}

/** The modal's breakdown (section 3): full, discounted, discounted2 (bitcoin) and discounted3 (dollar). */
export interface PriceBreakdown {
  full: Micros;
  /** The discount (tier plus coupon) in basis points, and the euro price after it. */
  discountBp: number;
  discounted: Micros;
  /** The bitcoin price: discount plus extraDiscountForBtc, in euros and in pico-bitcoins. */
  discounted2: Micros;
  discounted2InPicoBtc: number;
  /** The dollar price: discount plus extraDiscountForUsd, in euros and in micro-dollars. */
  discounted3: Micros;
  discounted3InMicroUsd: number;
}

export function priceBreakdown(input: PriceBreakdownInput): PriceBreakdown {
  const full = fullPrice(input.quantity, input.terms);
  const discountBp = tierDiscountBp(input.quantity, input.terms, input.tiers) + (input.coupon?.percentOffBp ?? 0);
  const discounted2 = discounted(full, discountBp + input.extraDiscountForBtcBp);
  const discounted3 = discounted(full, discountBp + input.extraDiscountForUsdBp);
  return {
    full,
    discountBp,
    discounted: discounted(full, discountBp),
    discounted2,
    discounted2InPicoBtc: eurosToPicoBitcoins(discounted2, input.rates.btcToEur),
    discounted3,
    discounted3InMicroUsd: eurosToDollars(discounted3, input.rates.usdToEur),
  };
}

/** What a buyer pays for one way to pay: the euro amount and the amount in the currency charged. */
export type PaymentCurrency = 'eur' | 'usd' | 'btc';

export function amountToCharge(
  breakdown: PriceBreakdown,
  currency: PaymentCurrency,
): { euros: Micros; inCurrency: number } {
  if (currency === 'btc') return { euros: breakdown.discounted2, inCurrency: breakdown.discounted2InPicoBtc };
  if (currency === 'usd') return { euros: breakdown.discounted3, inCurrency: breakdown.discounted3InMicroUsd };
  return { euros: breakdown.discounted, inCurrency: breakdown.discounted };
}

/** Direct billing is offered when the campaign allows it and the discounted euro price reaches the minimum order. */
export function canPayByInvoice(
  campaign: { canBillToPay: boolean },
  breakdown: Pick<PriceBreakdown, 'discounted'>,
  billToPayMinOrder: Micros,
): boolean {
  return campaign.canBillToPay && breakdown.discounted > 0 && breakdown.discounted >= billToPayMinOrder;
}

/** A coupon an admin created: a percentage off one purchase, or free credits; usable once per advertiser. */
export interface Coupon {
  code: string;
  percentOffBp: number | null;
  freeQuantity: number | null;
  expiresAt: number | null;
}

export type CouponProblem = 'expired' | 'alreadyUsed';

/** Why an advertiser cannot redeem a coupon now (null: it can). */
export function couponProblem(coupon: Coupon, now: number, alreadyUsedByAdvertiser: boolean): CouponProblem | null {
  if (coupon.expiresAt !== null && now >= coupon.expiresAt) return 'expired';
  if (alreadyUsedByAdvertiser) return 'alreadyUsed';
  return null;
}

/** Invoices are due this many days after they are issued (section 9). */
export const INVOICE_PAYMENT_DAYS = 30;

/** Without a limit of its own, an advertiser may owe this many times the minimum order of direct billing. */
export const DEFAULT_INVOICE_LIMIT_MULTIPLE = 10;

/** The unpaid invoices an advertiser may have in total (micro-euros): its own limit, else the default. */
export function invoiceLimit(advertiserLimit: Micros | null, billToPayMinOrder: Micros): Micros {
  return advertiserLimit ?? billToPayMinOrder * DEFAULT_INVOICE_LIMIT_MULTIPLE;
}

/** Whether an invoice of `amount` would take the advertiser's unpaid invoices beyond its limit. */
export function exceedsInvoiceLimit(outstanding: Micros, amount: Micros, limit: Micros): boolean {
  return outstanding + amount > limit;
}

/** An invoice is overdue once its due date has passed unpaid. */
export function isOverdue(invoice: { state: string; dueAt: number | null }, now: number): boolean {
  return invoice.state === 'unpaid' && invoice.dueAt !== null && invoice.dueAt < now;
}

/** What the network does with a payment that arrives for a sale cancelled meanwhile (a network setting). */
export const LATE_PAYMENT_ACTIONS = ['credit', 'refund'] as const;
export type LatePaymentAction = (typeof LATE_PAYMENT_ACTIONS)[number];
export const DEFAULT_LATE_PAYMENT_ACTION: LatePaymentAction = 'credit';

/** What became of such a payment: credited, refunded through the card processor, or to be refunded by hand. */
export type LatePaymentOutcome = 'credited' | 'refunded' | 'refundByHand';

/**
 * The outcome of a late payment: credited unless the network refunds; a card payment is refunded through the card
 * processor when it can be (the event names the payment), any other one by an admin, by hand.
 */
export function latePaymentOutcome(
  action: LatePaymentAction,
  method: 'card' | 'bitcoin' | 'invoice',
  processorCanRefund: boolean,
): LatePaymentOutcome {
  if (action === 'credit') return 'credited';
  return method === 'card' && processorCanRefund ? 'refunded' : 'refundByHand';
}
