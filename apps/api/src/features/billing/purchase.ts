import { and, desc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import { advertisers, campaigns, couponRedemptions, coupons, sales, type Database } from '@helium/db';
import {
  MICROS_PER_EURO,
  PICO_BTC_PER_BTC,
  amountToCharge,
  canPayByInvoice,
  formatNumber,
  microsToEuros,
  priceBreakdown,
  purchaseLimits,
  quantityProblem,
  type DiscountTiers,
  type Locale,
  type PaymentCurrency,
  type PriceBreakdown,
  type PurchaseTerms,
} from '@helium/domain';
import type { TCampaignPurchase, TPriceBreakdown } from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { findAdvertiserCampaign } from '../campaign-activity/campaign-activity.ts';
import { latestNetworkSettings, type NetworkSettings } from '../network-settings/network-settings.ts';

type CampaignRow = typeof campaigns.$inferSelect;
type SettingsRow = NetworkSettings;

export function discountTiers(settings: SettingsRow): DiscountTiers {
  return {
    thresholdsBp: [settings.discountThreshold1Bp, settings.discountThreshold2Bp, settings.discountThreshold3Bp],
    amountsBp: [settings.discountAmount1Bp, settings.discountAmount2Bp, settings.discountAmount3Bp],
  };
}

/** A percent-off coupon the advertiser applied: free to claim, or held by a sale not paid yet. */
export interface PendingCoupon {
  redemptionId: number;
  couponId: number;
  code: string;
  percentOffBp: number;
}

/** Everything a campaign's purchase is priced from: read once per call, priced by the domain. */
export interface PurchaseContext {
  campaign: CampaignRow;
  brand: string;
  settings: SettingsRow;
  terms: PurchaseTerms;
  /** The coupon this purchase may claim when it is recorded (null: none is free). */
  coupon: PendingCoupon | null;
  /** A coupon held by a purchase awaiting payment, when none is free: the reason this one is at full price. */
  heldCoupon: PendingCoupon | null;
}

export async function loadPurchaseContext(
  db: Database,
  advertiserId: number,
  campaignId: number,
): Promise<PurchaseContext> {
  const campaign = await findAdvertiserCampaign(db, advertiserId, campaignId);
  const [advertiser] = await db.select().from(advertisers).where(eq(advertisers.id, advertiserId));
  const settings = await latestNetworkSettings(db);
  const { free, held } = await percentCoupons(db, advertiserId);
  const limits = purchaseLimits({ isCpc: campaign.isCpc, buyMax: campaign.buyMax, buyStep: campaign.buyStep });
  return {
    campaign,
    brand: advertiser?.brand ?? '',
    settings,
    terms: {
      isCpc: campaign.isCpc,
      cpm: campaign.cpm,
      cpc: campaign.cpc,
      max: limits.max,
      step: limits.step,
      doNotDiscount: campaign.doNotDiscount,
    },
    coupon: free,
    heldCoupon: free ? null : held,
  };
}

/**
 * The advertiser's percent-off coupons that a purchase may still use: the latest free one (no sale claimed it),
 * and the latest held by a sale awaiting payment (pending or unpaid), which comes back if that sale is cancelled.
 */
export async function percentCoupons(
  db: Database,
  advertiserId: number,
): Promise<{ free: PendingCoupon | null; held: PendingCoupon | null }> {
  const rows = await db
    .select({
      redemptionId: couponRedemptions.id,
      couponId: coupons.id,
      code: coupons.code,
      percentOffBp: coupons.percentOffBp,
      saleId: couponRedemptions.saleId,
    })
    .from(couponRedemptions)
    .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
    .leftJoin(sales, eq(sales.id, couponRedemptions.saleId))
    .where(
      and(
        eq(couponRedemptions.advertiserId, advertiserId),
        isNotNull(coupons.percentOffBp),
        or(isNull(couponRedemptions.saleId), inArray(sales.state, ['pending', 'unpaid'])),
      ),
    )
    .orderBy(desc(couponRedemptions.id));
  const asPending = (row: (typeof rows)[number] | undefined): PendingCoupon | null =>
    row && row.percentOffBp !== null
      ? { redemptionId: row.redemptionId, couponId: row.couponId, code: row.code, percentOffBp: row.percentOffBp }
      : null;
  return {
    free: asPending(rows.find((row) => row.saleId === null)),
    held: asPending(rows.find((row) => row.saleId !== null)),
  };
}

/** The breakdown of a quantity, priced by the server from the campaign and the network settings only. */
export function quote(context: PurchaseContext, quantity: number): PriceBreakdown {
  const { settings } = context;
  return priceBreakdown({
    quantity,
    terms: context.terms,
    tiers: discountTiers(settings),
    extraDiscountForBtcBp: settings.extraDiscountForBtcBp,
    extraDiscountForUsdBp: settings.extraDiscountForUsdBp,
    coupon: context.coupon ? { percentOffBp: context.coupon.percentOffBp } : null,
    rates: { usdToEur: settings.usdToEur, btcToEur: settings.btcToEur },
  });
}

/** A quantity the campaign sells: a positive multiple of its step, at most its maximum (else a 422). */
export function checkedQuantity(context: PurchaseContext, quantity: number): number {
  const problem = quantityProblem(quantity, context.terms);
  if (!problem) return quantity;
  const { step, max } = context.terms;
  const messages = {
    notPositive: 'Choose a quantity greater than 0.',
    notAStep: `The quantity must be a multiple of ${step}.`,
    aboveMax: `The quantity cannot exceed ${max}.`,
  } as const;
  throw new HttpError(422, `quantity.${problem}`, messages[problem]);
}

/** What one way to pay charges for a quantity, with the rate used (null for euros). */
export function charge(context: PurchaseContext, quantity: number, currency: PaymentCurrency) {
  const breakdown = quote(context, quantity);
  const { euros, inCurrency } = amountToCharge(breakdown, currency);
  const rate = currency === 'usd' ? context.settings.usdToEur : currency === 'btc' ? context.settings.btcToEur : null;
  const extraBp =
    currency === 'usd'
      ? context.settings.extraDiscountForUsdBp
      : currency === 'btc'
        ? context.settings.extraDiscountForBtcBp
        : 0;
  return { breakdown, amount: euros, amountInCurrency: inCurrency, rate, discountBp: breakdown.discountBp + extraBp };
}

/** Pico-bitcoins as the 12-decimal text of the bitcoin confirmation ("0.012195121951"). */
export function picoBtcText(picoBtc: number): string {
  const whole = Math.floor(picoBtc / PICO_BTC_PER_BTC);
  const fraction = String(picoBtc % PICO_BTC_PER_BTC).padStart(12, '0');
  return `${whole}.${fraction}`;
}

const bpToPct = (bp: number) => bp / 100;

function breakdownView(breakdown: PriceBreakdown): TPriceBreakdown {
  return {
    full: microsToEuros(breakdown.full),
    discounted: microsToEuros(breakdown.discounted),
    discounted2: microsToEuros(breakdown.discounted2),
    discounted2InBtc: picoBtcText(breakdown.discounted2InPicoBtc),
    discounted3: microsToEuros(breakdown.discounted3),
    discounted3InUsd: breakdown.discounted3InMicroUsd / MICROS_PER_EURO,
    discountPct: bpToPct(breakdown.discountBp),
  };
}

/** The coupon's percentage as the message shows it: "10", "12.5" (fr "12,5"). */
const couponPct = (coupon: PendingCoupon, locale: Locale) =>
  formatNumber(bpToPct(coupon.percentOffBp), locale, 2).replace(/[.,]00$/, '');

/** What the coupon message says applies (couponStr), in the user's language. */
export function couponText(coupon: PendingCoupon | null, locale: Locale): string | null {
  if (!coupon) return null;
  const pct = couponPct(coupon, locale);
  return locale === 'fr'
    ? `Coupon ${coupon.code} : ${pct} % de remise sur votre prochain achat.`
    : `Coupon ${coupon.code}: ${pct}% off your next purchase.`;
}

/** Why a purchase is at full price while the advertiser's coupon is held by another one, awaiting payment. */
export function heldCouponText(coupon: PendingCoupon, locale: Locale): string {
  return locale === 'fr'
    ? `Le coupon ${coupon.code} est réservé par un achat en attente de paiement : cet achat-ci est au prix plein. Le coupon vous sera rendu si cet achat est annulé ou expire.`
    : `Coupon ${coupon.code} is held by a purchase awaiting payment: this purchase is at full price. The coupon comes back if that purchase is cancelled or expires.`;
}

/** The coupon message of the advertiser's next purchase (couponStr): its coupon, or why it is at full price. */
export async function couponMessage(db: Database, advertiserId: number, locale: Locale): Promise<string | null> {
  const { free, held } = await percentCoupons(db, advertiserId);
  if (free) return couponText(free, locale);
  return held ? heldCouponText(held, locale) : null;
}

/** What a recorded purchase says of the coupon: the one it took, or why it is at full price (null: no coupon). */
export function couponOutcomeText(
  use: { claimed: PendingCoupon | null; held: PendingCoupon | null },
  locale: Locale,
): string | null {
  if (use.claimed) {
    const pct = couponPct(use.claimed, locale);
    return locale === 'fr'
      ? `Coupon ${use.claimed.code} : ${pct} % de remise sur cet achat.`
      : `Coupon ${use.claimed.code}: ${pct}% off this purchase.`;
  }
  return use.held ? heldCouponText(use.held, locale) : null;
}

/** The add-credits modal's fields (specification 02, section 3) for the campaign's chosen quantity. */
export function purchaseView(context: PurchaseContext, locale: Locale): TCampaignPurchase {
  const { campaign, settings, terms } = context;
  const quantity = campaign.buyQuantity;
  const breakdown = quote(context, quantity);
  const tiers = discountTiers(settings);
  return {
    campaignExId: campaign.id,
    is_cpc: campaign.isCpc,
    buy_impressions: campaign.isCpc ? 0 : quantity,
    buy_impressions_step: campaign.isCpc
      ? purchaseLimits({ isCpc: false, buyMax: null, buyStep: null }).step
      : terms.step,
    buyImpressionsMax: campaign.isCpc ? 0 : terms.max,
    buyCpm: microsToEuros(campaign.cpm),
    buy_clicks: campaign.isCpc ? quantity : 0,
    buy_clicks_max: campaign.isCpc ? terms.max : 0,
    buy_clicks_step: campaign.isCpc ? terms.step : purchaseLimits({ isCpc: true, buyMax: null, buyStep: null }).step,
    buyCpc: microsToEuros(campaign.cpc),
    discountThresholdPct1: bpToPct(tiers.thresholdsBp[0]),
    discountThresholdPct2: bpToPct(tiers.thresholdsBp[1]),
    discountThresholdPct3: bpToPct(tiers.thresholdsBp[2]),
    discountAmountPct1: bpToPct(tiers.amountsBp[0]),
    discountAmountPct2: bpToPct(tiers.amountsBp[1]),
    discountAmountPct3: bpToPct(tiers.amountsBp[2]),
    extraDiscountForBtc: bpToPct(settings.extraDiscountForBtcBp),
    extraDiscountForUsd: bpToPct(settings.extraDiscountForUsdBp),
    do_not_discount: campaign.doNotDiscount,
    couponPercentOff: context.coupon ? bpToPct(context.coupon.percentOffBp) : 0,
    couponStr: context.heldCoupon ? heldCouponText(context.heldCoupon, locale) : couponText(context.coupon, locale),
    canBuyInBtc: campaign.canBuyInBtc,
    canBillToPay: campaign.canBillToPay,
    billToPayMinOrder: microsToEuros(settings.billToPayMinOrder),
    vatBp: settings.vatBp,
    usd_to_eur: settings.usdToEur,
    btc_to_eur: settings.btcToEur,
    price: breakdownView(breakdown),
  };
}

/** Whether direct billing is offered for the campaign's quantity (the buttons' condition, checked again here). */
export function invoiceAllowed(context: PurchaseContext, breakdown: PriceBreakdown): boolean {
  return canPayByInvoice(context.campaign, breakdown, context.settings.billToPayMinOrder);
}

/** Stores the slider's quantity (update-buy) once it is one the campaign sells; 0 clears it. */
export async function storeBuyQuantity(db: Database, context: PurchaseContext, quantity: number): Promise<void> {
  if (quantity !== 0) checkedQuantity(context, quantity);
  await db.update(campaigns).set({ buyQuantity: quantity }).where(eq(campaigns.id, context.campaign.id));
  context.campaign = { ...context.campaign, buyQuantity: quantity };
}
