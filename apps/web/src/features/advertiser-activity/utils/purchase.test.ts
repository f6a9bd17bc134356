import { describe, expect, it } from 'vitest';
import type { TCampaignPurchase } from '@helium/contracts';
import {
  breakdownTexts,
  canBillToPay,
  localBreakdown,
  picoBitcoinsToString,
  purchaseSlider,
  shownBreakdown,
} from './purchase.ts';

const purchase: TCampaignPurchase = {
  campaignExId: 1,
  is_cpc: false,
  buy_impressions: 1_000_000,
  buy_impressions_step: 100_000,
  buyImpressionsMax: 2_000_000,
  buyCpm: 2.5,
  buy_clicks: 0,
  buy_clicks_max: 10_000,
  buy_clicks_step: 500,
  buyCpc: 0.3,
  discountThresholdPct1: 25,
  discountThresholdPct2: 50,
  discountThresholdPct3: 100,
  discountAmountPct1: 5,
  discountAmountPct2: 10,
  discountAmountPct3: 15,
  extraDiscountForBtc: 2,
  extraDiscountForUsd: 1,
  do_not_discount: false,
  couponPercentOff: 0,
  couponStr: null,
  canBuyInBtc: true,
  canBillToPay: true,
  billToPayMinOrder: 1000,
  vatBp: 2000,
  usd_to_eur: '0.92000000',
  btc_to_eur: '61250.00',
  price: {
    full: 2500,
    discounted: 2250,
    discounted2: 2200,
    discounted2InBtc: '0.035918367347',
    discounted3: 2225,
    discounted3InUsd: 2418.48,
    discountPct: 10,
  },
};

describe('purchaseSlider', () => {
  it('takes impressions, or clicks for a click-priced campaign', () => {
    expect(purchaseSlider(purchase)).toEqual({ isCpc: false, max: 2_000_000, step: 100_000, value: 1_000_000 });
    expect(purchaseSlider({ ...purchase, is_cpc: true, buy_clicks: 1500 })).toEqual({
      isCpc: true,
      max: 10_000,
      step: 500,
      value: 1500,
    });
  });

  it('falls back on the defaults of section 5 and keeps the value within the slider', () => {
    const empty = { ...purchase, buy_impressions_step: 0, buyImpressionsMax: 0, buy_impressions: 9_000_000 };
    expect(purchaseSlider(empty)).toEqual({ isCpc: false, max: 2_000_000, step: 100_000, value: 2_000_000 });
    const clicks = { ...purchase, is_cpc: true, buy_clicks_max: 0, buy_clicks_step: 0, buy_clicks: 0 };
    expect(purchaseSlider(clicks)).toEqual({ isCpc: true, max: 10_000, step: 500, value: 0 });
  });
});

describe('localBreakdown', () => {
  it('prices impressions with the tier discount and the bitcoin and dollar extras', () => {
    // 1,000,000 impressions at 2.50 EUR CPM = 2,500 EUR; half the maximum: tier 2, 10 %.
    expect(localBreakdown(purchase, 1_000_000)).toEqual({
      full: 2500,
      discounted: 2250,
      discounted2: 2200,
      discounted2InBtc: '0.035918367347',
      discounted3: 2225,
      discounted3InUsd: 2418.48,
      discountPct: 10,
    });
  });

  it('gives no discount below the first threshold, nor with do_not_discount', () => {
    expect(localBreakdown(purchase, 100_000)).toMatchObject({ full: 250, discounted: 250, discountPct: 0 });
    expect(localBreakdown({ ...purchase, do_not_discount: true }, 2_000_000)).toMatchObject({
      full: 5000,
      discounted: 5000,
      discountPct: 0,
    });
  });

  it("adds the advertiser's percent-off coupon and prices clicks by the CPC", () => {
    const clicks = { ...purchase, is_cpc: true, couponPercentOff: 10 };
    // 1,000 clicks at 0.30 EUR = 300 EUR; 10 % of the maximum: no tier, the coupon's 10 %.
    expect(localBreakdown(clicks, 1000)).toMatchObject({ full: 300, discounted: 270, discountPct: 10 });
  });

  it('is zero for nothing', () => {
    expect(localBreakdown(purchase, 0)).toMatchObject({ full: 0, discounted: 0, discounted2InBtc: '0.000000000000' });
  });
});

describe('shownBreakdown', () => {
  it("shows the server's price for its quantity and the modal's own for another", () => {
    expect(shownBreakdown(purchase, 1_000_000)).toBe(purchase.price);
    expect(shownBreakdown(purchase, 200_000).full).toBe(500);
  });

  it("keeps the server's price when a rate cannot be read", () => {
    expect(shownBreakdown({ ...purchase, btc_to_eur: '0' }, 200_000)).toBe(purchase.price);
  });
});

describe('canBillToPay', () => {
  it('needs the campaign to allow it and the discounted price to reach the minimum order', () => {
    expect(canBillToPay(purchase, purchase.price)).toBe(true);
    expect(canBillToPay({ ...purchase, billToPayMinOrder: 2250.01 }, purchase.price)).toBe(false);
    expect(canBillToPay({ ...purchase, billToPayMinOrder: 2250 }, purchase.price)).toBe(true);
    expect(canBillToPay({ ...purchase, canBillToPay: false }, purchase.price)).toBe(false);
  });
});

describe('picoBitcoinsToString', () => {
  it('writes 12 decimals exactly', () => {
    expect(picoBitcoinsToString(1_234_567)).toBe('0.000001234567');
    expect(picoBitcoinsToString(12_345_678_901_234)).toBe('12.345678901234');
  });
});

describe('breakdownTexts', () => {
  it('prints euros after, dollars and bitcoins before, per locale', () => {
    expect(breakdownTexts(purchase.price, 'en')).toEqual({
      full: '2,500.00 €',
      discounted: '2,250.00 €',
      discountPct: '10%',
      bitcoinEuros: '2,200.00 €',
      bitcoin: '₿0.03591837',
      bitcoinExact: '₿0.035918367347',
      dollarEuros: '2,225.00 €',
      dollars: '$2,418.48',
    });
    expect(breakdownTexts(purchase.price, 'fr')).toMatchObject({
      full: '2 500,00 €',
      discountPct: '10 %',
      bitcoin: '₿0,03591837',
      dollars: '$2 418,48',
    });
  });
});
