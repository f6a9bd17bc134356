import type { TCampaignPurchase, TPriceBreakdown } from '@helium/contracts';
import { formatMoney, formatPercent, type Locale } from '@helium/domain/format';
import { eurosToMicros, MICROS_PER_EURO } from '@helium/domain/money';
import {
  BUY_CLICKS_MAX_DEFAULT,
  BUY_CLICKS_STEP_DEFAULT,
  BUY_IMPRESSIONS_MAX_DEFAULT,
  BUY_IMPRESSIONS_STEP_DEFAULT,
  canPayByInvoice,
  priceBreakdown,
} from '@helium/domain/pricing';

/*
 * The add-credits modal's arithmetic (specification 02, sections 2.2, 5 and 9). The purchase comes from the server
 * in euros and percents; the domain prices in micro-units and basis points. What the modal computes is shown while
 * the slider moves, never sent as a price: the server answers with its own breakdown once the slider is released.
 */

/** The slider of a purchase: impressions, or clicks for a click-priced campaign, with the section 5 defaults. */
export interface PurchaseSlider {
  isCpc: boolean;
  max: number;
  step: number;
  /** The quantity the server holds for the campaign (buy_impressions or buy_clicks), within the slider. */
  value: number;
}

const positive = (value: number, fallback: number) => (Number.isFinite(value) && value > 0 ? value : fallback);

export function purchaseSlider(purchase: TCampaignPurchase): PurchaseSlider {
  const isCpc = purchase.is_cpc;
  const max = isCpc
    ? positive(purchase.buy_clicks_max, BUY_CLICKS_MAX_DEFAULT)
    : positive(purchase.buyImpressionsMax, BUY_IMPRESSIONS_MAX_DEFAULT);
  const step = isCpc
    ? positive(purchase.buy_clicks_step, BUY_CLICKS_STEP_DEFAULT)
    : positive(purchase.buy_impressions_step, BUY_IMPRESSIONS_STEP_DEFAULT);
  const value = isCpc ? purchase.buy_clicks : purchase.buy_impressions;
  return { isCpc, max, step, value: Math.min(Math.max(0, value || 0), max) };
}

/** Percent (as the contract has it) in basis points. */
const bp = (pct: number) => Math.round(pct * 100);

/** An integer amount of pico-bitcoins as bitcoins with 12 decimals, exactly: 1_234_567 -> "0.000001234567". */
export function picoBitcoinsToString(pico: number): string {
  const digits = String(Math.max(0, Math.round(pico))).padStart(13, '0');
  return `${digits.slice(0, -12)}.${digits.slice(-12)}`;
}

/** The breakdown of any quantity, as the server would compute it, for display while the slider moves. */
export function localBreakdown(purchase: TCampaignPurchase, quantity: number): TPriceBreakdown {
  const slider = purchaseSlider(purchase);
  const breakdown = priceBreakdown({
    quantity,
    terms: {
      isCpc: slider.isCpc,
      cpm: eurosToMicros(purchase.buyCpm),
      cpc: eurosToMicros(purchase.buyCpc),
      max: slider.max,
      step: slider.step,
      doNotDiscount: purchase.do_not_discount,
    },
    tiers: {
      thresholdsBp: [
        bp(purchase.discountThresholdPct1),
        bp(purchase.discountThresholdPct2),
        bp(purchase.discountThresholdPct3),
      ],
      amountsBp: [bp(purchase.discountAmountPct1), bp(purchase.discountAmountPct2), bp(purchase.discountAmountPct3)],
    },
    extraDiscountForBtcBp: bp(purchase.extraDiscountForBtc),
    extraDiscountForUsdBp: bp(purchase.extraDiscountForUsd),
    coupon: purchase.couponPercentOff > 0 ? { percentOffBp: bp(purchase.couponPercentOff) } : null,
    rates: { usdToEur: purchase.usd_to_eur, btcToEur: purchase.btc_to_eur },
  });
  const euros = (micros: number) => micros / MICROS_PER_EURO;
  return {
    full: euros(breakdown.full),
    discounted: euros(breakdown.discounted),
    discounted2: euros(breakdown.discounted2),
    discounted2InBtc: picoBitcoinsToString(breakdown.discounted2InPicoBtc),
    discounted3: euros(breakdown.discounted3),
    discounted3InUsd: euros(breakdown.discounted3InMicroUsd),
    discountPct: breakdown.discountBp / 100,
  };
}

/**
 * The price to show for a quantity: the server's when it is for that quantity, else the modal's own (or the
 * server's last one should the purchase hold a rate the domain cannot read: the server prices it on release).
 */
export function shownBreakdown(purchase: TCampaignPurchase, quantity: number): TPriceBreakdown {
  if (quantity === purchaseSlider(purchase).value) return purchase.price;
  try {
    return localBreakdown(purchase, quantity);
  } catch {
    return purchase.price;
  }
}

/** Direct billing: allowed for the campaign and the discounted euro price at least the minimum order. */
export function canBillToPay(purchase: TCampaignPurchase, price: TPriceBreakdown): boolean {
  return canPayByInvoice(
    purchase,
    { discounted: eurosToMicros(price.discounted) },
    eurosToMicros(purchase.billToPayMinOrder),
  );
}

/** The breakdown's figures as the modal prints them, each in its own currency (section 9). */
export interface BreakdownTexts {
  full: string;
  discounted: string;
  discountPct: string;
  /** The bitcoin price in euros, in bitcoins (8 decimals), and in bitcoins with 12 decimals (the confirmation). */
  bitcoinEuros: string;
  bitcoin: string;
  bitcoinExact: string;
  dollarEuros: string;
  dollars: string;
}

/** Amounts already in their currency: no conversion. */
const AS_IS = { usdToEur: 1, btcToEur: 1 };

export function breakdownTexts(price: TPriceBreakdown, locale: Locale): BreakdownTexts {
  const eur = (euros: number) => formatMoney(euros, { locale, currency: 'eur' });
  const btc = Number(price.discounted2InBtc);
  return {
    full: eur(price.full),
    discounted: eur(price.discounted),
    discountPct: formatPercent(price.discountPct, locale, price.discountPct % 1 === 0 ? 0 : 2),
    bitcoinEuros: eur(price.discounted2),
    bitcoin: formatMoney(btc, { locale, currency: 'btc', rates: AS_IS }),
    bitcoinExact: formatMoney(btc, { locale, currency: 'btc', rates: AS_IS, btcDecimals: 12 }),
    dollarEuros: eur(price.discounted3),
    dollars: formatMoney(price.discounted3InUsd, { locale, currency: 'usd', rates: AS_IS }),
  };
}
