import { describe, expect, it } from 'vitest';
import {
  amountToCharge,
  canPayByInvoice,
  couponProblem,
  DEFAULT_LATE_PAYMENT_ACTION,
  discounted,
  eurosToDollars,
  eurosToPicoBitcoins,
  exceedsInvoiceLimit,
  fullPrice,
  invoiceLimit,
  isOverdue,
  LATE_PAYMENT_ACTIONS,
  latePaymentOutcome,
  priceBreakdown,
  purchaseLimits,
  quantityProblem,
  tierDiscountBp,
  type DiscountTiers,
  type PurchaseTerms,
} from '../src/pricing.ts';

const tiers: DiscountTiers = { thresholdsBp: [2500, 5000, 10000], amountsBp: [500, 1000, 1500] };
const cpmTerms: PurchaseTerms = {
  isCpc: false,
  cpm: 2_500_000,
  cpc: 0,
  max: 2_000_000,
  step: 100_000,
  doNotDiscount: false,
};

describe('purchase limits (specification 02, section 5)', () => {
  it.each([
    [
      { isCpc: false, buyMax: null, buyStep: null },
      { max: 2_000_000, step: 100_000 },
    ],
    [
      { isCpc: true, buyMax: null, buyStep: null },
      { max: 10_000, step: 500 },
    ],
    [
      { isCpc: false, buyMax: 500_000, buyStep: 50_000 },
      { max: 500_000, step: 50_000 },
    ],
  ])('%o -> %o', (campaign, limits) => {
    expect(purchaseLimits(campaign)).toEqual(limits);
  });

  it.each([
    [0, 'notPositive'],
    [-100_000, 'notPositive'],
    [1.5, 'notPositive'],
    [150_000, 'notAStep'],
    [2_100_000, 'aboveMax'],
    [100_000, null],
    [2_000_000, null],
  ] as const)('quantity %d: %s', (quantity, problem) => {
    expect(quantityProblem(quantity, cpmTerms)).toBe(problem);
  });
});

describe('full price', () => {
  it.each([
    [100_000, cpmTerms, 250_000_000],
    [1_000, { isCpc: false, cpm: 1_234_500, cpc: 0 }, 1_234_500],
    [3, { isCpc: false, cpm: 1_234_500, cpc: 0 }, 3_703],
    [500, { isCpc: true, cpm: 0, cpc: 300_000 }, 150_000_000],
  ])('%d at %o costs %d micro-euros', (quantity, terms, price) => {
    expect(fullPrice(quantity, terms)).toBe(price);
  });
});

describe('discount tiers (section 9)', () => {
  it.each([
    [100_000, 0], // 5 % of the maximum: below threshold 1
    [499_999, 0],
    [500_000, 500], // exactly 25 %: amount 1
    [999_999, 500],
    [1_000_000, 1000], // 50 %: amount 2
    [1_900_000, 1000],
    [2_000_000, 1500], // 100 %: amount 3
  ])('%d of 2,000,000 -> %d bp', (quantity, bp) => {
    expect(tierDiscountBp(quantity, cpmTerms, tiers)).toBe(bp);
  });

  it('do_not_discount turns them off', () => {
    expect(tierDiscountBp(2_000_000, { ...cpmTerms, doNotDiscount: true }, tiers)).toBe(0);
  });
});

describe('discounted prices are rounded down to the cent', () => {
  it.each([
    [250_000_000, 500, 237_500_000],
    [3_703, 0, 0],
    [1_234_567, 1000, 1_110_000], // 1.1111103 EUR -> 1.11
    [100_000_000, 10_000, 0],
    [100_000_000, 12_000, 0], // capped at 100 %
  ])('%d less %d bp = %d', (price, bp, result) => {
    expect(discounted(price, bp)).toBe(result);
  });
});

describe('conversions with the rates as stored', () => {
  it('dollars: euros / usd_to_eur, to the cent, halves up', () => {
    expect(eurosToDollars(92_000_000, '0.92000000')).toBe(100_000_000);
    expect(eurosToDollars(1_000_000, '0.92000000')).toBe(1_090_000); // 1.0869565 -> 1.09
    expect(eurosToDollars(1_000_000, '3')).toBe(330_000); // 0.3333 -> 0.33
    expect(eurosToDollars(50_000, '1')).toBe(50_000);
  });

  it('bitcoins: euros / btc_to_eur in pico-bitcoins, halves up', () => {
    expect(eurosToPicoBitcoins(82_000_000_000, '82000.00')).toBe(1_000_000_000_000);
    expect(eurosToPicoBitcoins(237_500_000, '82000.00')).toBe(2_896_341_463); // 0.002896341463414...
    expect(eurosToPicoBitcoins(1, '3')).toBe(333_333);
    expect(eurosToPicoBitcoins(2, '3')).toBe(666_667);
  });

  it('refuses a rate that is not a positive decimal', () => {
    expect(() => eurosToDollars(1, '0')).toThrow(RangeError);
    expect(() => eurosToDollars(1, '-1')).toThrow(RangeError);
    expect(() => eurosToDollars(1, 'abc')).toThrow(RangeError);
  });
});

describe('the breakdown (section 3)', () => {
  const input = {
    terms: cpmTerms,
    tiers,
    extraDiscountForBtcBp: 500,
    extraDiscountForUsdBp: 200,
    coupon: null,
    rates: { usdToEur: '0.92000000', btcToEur: '82000.00' },
  };

  it('full, discounted, bitcoin (discount + extra) and dollar (discount + extra)', () => {
    expect(priceBreakdown({ ...input, quantity: 500_000 })).toEqual({
      full: 1_250_000_000,
      discountBp: 500,
      discounted: 1_187_500_000,
      discounted2: 1_125_000_000,
      discounted2InPicoBtc: 13_719_512_195,
      discounted3: 1_162_500_000,
      discounted3InMicroUsd: 1_263_590_000,
    });
  });

  it('a percent-off coupon adds to the tier discount', () => {
    const breakdown = priceBreakdown({ ...input, quantity: 500_000, coupon: { percentOffBp: 1000 } });
    expect(breakdown.discountBp).toBe(1500);
    expect(breakdown.discounted).toBe(1_062_500_000);
  });

  it('each way to pay charges its own price', () => {
    const breakdown = priceBreakdown({ ...input, quantity: 100_000 });
    expect(amountToCharge(breakdown, 'eur')).toEqual({ euros: 250_000_000, inCurrency: 250_000_000 });
    expect(amountToCharge(breakdown, 'usd').euros).toBe(245_000_000);
    expect(amountToCharge(breakdown, 'btc').euros).toBe(237_500_000);
  });

  it('quantity 0 costs nothing', () => {
    expect(priceBreakdown({ ...input, quantity: 0 }).discounted).toBe(0);
  });
});

describe('direct billing and coupons', () => {
  it.each([
    [true, 1_000_000_000, true],
    [true, 999_990_000, false],
    [false, 5_000_000_000, false],
  ])('canBillToPay %s, discounted %d: %s', (canBillToPay, price, allowed) => {
    expect(canPayByInvoice({ canBillToPay }, { discounted: price }, 1_000_000_000)).toBe(allowed);
  });

  const coupon = { code: 'WELCOME10', percentOffBp: 1000, freeQuantity: null, expiresAt: 2_000 };
  it.each([
    [1_000, false, null],
    [2_000, false, 'expired'],
    [1_000, true, 'alreadyUsed'],
  ] as const)('at %d, used %s: %s', (now, used, problem) => {
    expect(couponProblem(coupon, now, used)).toBe(problem);
  });
});

describe('the ceiling of unpaid invoices', () => {
  it.each([
    [null, 1_000_000_000, 10_000_000_000],
    [2_500_000_000, 1_000_000_000, 2_500_000_000],
    [0, 1_000_000_000, 0],
  ])('own limit %s, minimum order %d: %d', (own, minOrder, limit) => {
    expect(invoiceLimit(own, minOrder)).toBe(limit);
  });

  it.each([
    [0, 10_000_000_000, 10_000_000_000, false],
    [1, 10_000_000_000, 10_000_000_000, true],
    [8_812_500_000, 1_187_500_000, 10_000_000_000, false],
    [8_812_500_001, 1_187_500_000, 10_000_000_000, true],
  ])('owing %d, a new invoice of %d, limit %d: beyond %s', (outstanding, amount, limit, beyond) => {
    expect(exceedsInvoiceLimit(outstanding, amount, limit)).toBe(beyond);
  });

  it.each([
    ['unpaid', 1_000, 1_001, true],
    ['unpaid', 1_000, 1_000, false],
    ['paid', 1_000, 5_000, false],
    ['cancelled', 1_000, 5_000, false],
    ['unpaid', null, 5_000, false],
  ] as const)('%s, due %s, at %d: overdue %s', (state, dueAt, now, overdue) => {
    expect(isOverdue({ state, dueAt }, now)).toBe(overdue);
  });
});

describe('a payment for a sale cancelled meanwhile', () => {
  it.each([
    ['credit', 'card', true, 'credited'],
    ['credit', 'bitcoin', false, 'credited'],
    ['credit', 'invoice', false, 'credited'],
    ['refund', 'card', true, 'refunded'],
    ['refund', 'card', false, 'refundByHand'],
    ['refund', 'bitcoin', false, 'refundByHand'],
    ['refund', 'invoice', false, 'refundByHand'],
  ] as const)('%s, %s, processor can refund %s: %s', (action, method, canRefund, outcome) => {
    expect(latePaymentOutcome(action, method, canRefund)).toBe(outcome);
  });

  it('credits by default', () => {
    expect(DEFAULT_LATE_PAYMENT_ACTION).toBe('credit');
    expect(LATE_PAYMENT_ACTIONS).toContain(DEFAULT_LATE_PAYMENT_ACTION);
  });
});
