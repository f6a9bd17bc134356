import { z } from 'zod';
import { defineCall } from './call.ts';
import { isStorableYear, ZIdSchema, ZStatusResponseSchema } from './common.ts';
import { withKey } from './issues.ts';
import { TEXT_LIMITS } from './limits.ts';

/*
 * Money in (specification 02, sections 2.2, 2.4, 3, 5 and 7; docs/billing.md). Prices shown are euros (numbers);
 * the server recomputes every price from the campaign and the network settings: a price the browser sends is
 * compared, logged when it differs, and never charged.
 */

const id = ZIdSchema;

/** The price breakdown of the chosen quantity (section 3), in euros, with the bitcoin and dollar amounts. */
export const ZPriceBreakdownSchema = z.object({
  full: z.number(),
  discounted: z.number(),
  /** The bitcoin price in euros, and in bitcoins (12 decimals, as a string so that no digit is lost). */
  discounted2: z.number(),
  discounted2InBtc: z.string(),
  /** The dollar price in euros, and in dollars. */
  discounted3: z.number(),
  discounted3InUsd: z.number(),
  /** The discount applied (tiers and coupon), percent. */
  discountPct: z.number(),
});
export type TPriceBreakdown = z.infer<typeof ZPriceBreakdownSchema>;

/** The purchase fields of a campaignEx (section 3) and what the add-credits modal needs to price any quantity. */
export const ZCampaignPurchaseSchema = z.object({
  campaignExId: z.number().int(),
  is_cpc: z.boolean(),
  buy_impressions: z.number().int(),
  buy_impressions_step: z.number().int(),
  buyImpressionsMax: z.number().int(),
  /** Euros per 1,000 impressions. */
  buyCpm: z.number(),
  buy_clicks: z.number().int(),
  buy_clicks_max: z.number().int(),
  buy_clicks_step: z.number().int(),
  /** Euros per click. */
  buyCpc: z.number(),
  /** The discount tiers: from these percents of the maximum purchase, these discounts (percents). */
  discountThresholdPct1: z.number(),
  discountThresholdPct2: z.number(),
  discountThresholdPct3: z.number(),
  discountAmountPct1: z.number(),
  discountAmountPct2: z.number(),
  discountAmountPct3: z.number(),
  extraDiscountForBtc: z.number(),
  extraDiscountForUsd: z.number(),
  do_not_discount: z.boolean(),
  /** An unused percent-off coupon of the advertiser (percent), 0 when none. */
  couponPercentOff: z.number(),
  /**
   * What the coupon does to this purchase, in the user's language: its percentage off, or why the purchase is at
   * full price (the coupon is held by another purchase awaiting payment); null without a coupon.
   */
  couponStr: z.string().nullable(),
  canBuyInBtc: z.boolean(),
  canBillToPay: z.boolean(),
  /** Euros. */
  billToPayMinOrder: z.number(),
  /** The VAT rate in force, basis points (2000 = 20 %): prices include it, invoices and receipts split it out. */
  vatBp: z.number().int(),
  /** Euros per dollar and per bitcoin, as stored (decimal strings). */
  usd_to_eur: z.string(),
  btc_to_eur: z.string(),
  /** The breakdown of the chosen quantity (buy_impressions or buy_clicks). */
  price: ZPriceBreakdownSchema,
});
export type TCampaignPurchase = z.infer<typeof ZCampaignPurchaseSchema>;

/** A purchase quantity as a call takes it: the server checks the step and the maximum. */
const quantity = z.number().int().min(0).max(1_000_000_000);

/** POST /api/advertiser/get-purchase: the add-credits modal's fields for a campaign. */
export const ZGetPurchaseRequestSchema = z.object({ campaignExId: id });

/** POST /api/advertiser/update-buy: the campaign with the quantity chosen on the slider (other fields ignored). */
export const ZUpdateBuyRequestSchema = z.object({
  supercampaign: z.object({ id, buy_impressions: quantity.optional(), buy_clicks: quantity.optional() }),
});
export type TUpdateBuyRequest = z.infer<typeof ZUpdateBuyRequestSchema>;

/** POST /api/advertiser/buy-with-bitcoin: `price` and `priceInBitcoin` are what the browser showed (logged). */
export const ZBuyWithBitcoinRequestSchema = z.object({
  campaignExId: id,
  /** Impressions, or clicks for a click-priced campaign. */
  buyImpressions: quantity,
  price: z.number().nonnegative().optional(),
  // Bounded: it goes to the log as sent.
  priceInBitcoin: z.union([z.number(), z.string().max(40)]).optional(),
});
export type TBuyWithBitcoinRequest = z.infer<typeof ZBuyWithBitcoinRequestSchema>;

export const ZBuyWithBitcoinResponseSchema = z.object({
  status: z.literal('ok'),
  saleId: z.number().int(),
  /** The amount to send, 12 decimals, the address and the reference to quote (also e-mailed). */
  amountInBtc: z.string(),
  address: z.string(),
  reference: z.string(),
  /** The coupon this purchase took, or why it is at full price (null: no coupon). */
  couponStr: z.string().nullable(),
});

/** POST /api/advertiser/buy-with-bill-to-pay */
export const ZBuyWithBillToPayRequestSchema = z.object({ campaignExId: id, currency: z.enum(['eur', 'usd']) });
export type TBuyWithBillToPayRequest = z.infer<typeof ZBuyWithBillToPayRequestSchema>;

export const ZBuyWithBillToPayResponseSchema = z.object({
  status: z.literal('ok'),
  saleId: z.number().int(),
  invoiceNumber: z.string(),
  couponStr: z.string().nullable(),
});

/** POST /api/advertiser/apply-coupon: a code an admin created; free credits at once, or a percentage off. */
export const ZApplyCouponRequestSchema = z.object({
  campaignExId: id,
  code: z.string().trim().min(1).max(TEXT_LIMITS.couponCode),
});

/** POST /api/stripe2/create-checkout-session-campaignex?campaignExId=&currency= (empty body). */
export const ZCheckoutQuerySchema = z.object({
  campaignExId: z.coerce.number().pipe(id),
  currency: z.enum(['eur', 'usd']),
});
export const ZCheckoutSessionResponseSchema = z.object({
  id: z.string(),
  url: z.string(),
  couponStr: z.string().nullable(),
});

/** POST /api/stripe2/webhook: Stripe's event, read raw and checked by its signature (not by this schema). */
export const ZWebhookResponseSchema = z.object({ received: z.boolean() });

/** The local test checkout (no STRIPE_SECRET_KEY): the session to show, and paying it. */
export const ZTestCheckoutRequestSchema = z.object({ sessionId: z.string().min(1).max(200) });
export const ZTestCheckoutSchema = z.object({
  id: z.string(),
  brand: z.string(),
  quantity: z.number().int(),
  is_cpc: z.boolean(),
  currency: z.enum(['eur', 'usd']),
  /** In the currency charged (euros or dollars). */
  amount: z.number(),
  state: z.enum(['pending', 'unpaid', 'paid', 'cancelled']),
});
export const ZPayTestCheckoutResponseSchema = z.object({ url: z.string() });

/** A sale as the advertiser's Settings list it (section 3). */
export const ZSaleSchema = z.object({
  id: z.number().int(),
  hash_id: z.string(),
  createdAtStr: z.string(),
  amountStr: z.string(),
  is_paid: z.boolean(),
  method: z.enum(['card', 'bitcoin', 'invoice']),
  state: z.enum(['pending', 'unpaid', 'paid', 'cancelled']),
  quantity: z.number().int(),
  is_cpc: z.boolean(),
});
export type TSale = z.infer<typeof ZSaleSchema>;

/** POST /api/advertiser/get-settings (section 2.4). */
export const ZAdvertiserSettingsSchema = z.object({
  advertiser: z.object({ id: z.number().int(), brand: z.string(), type: z.literal(2), createdAtStr: z.string() }),
  form: z.object({ billingInformation: z.object({ address: z.string() }) }),
  sales: z.array(ZSaleSchema),
});
export type TAdvertiserSettings = z.infer<typeof ZAdvertiserSettingsSchema>;

/** POST /api/advertiser/save-settings: billing information, at least one character (errorAddress). */
export const ZSaveAdvertiserSettingsRequestSchema = z.object({
  field: z.literal('billingInformation'),
  data: z.object({ address: z.string().trim().min(1, 'errorAddress').max(TEXT_LIMITS.billingAddress) }),
});
export type TSaveAdvertiserSettingsRequest = z.infer<typeof ZSaveAdvertiserSettingsRequestSchema>;

/** An admin's view of a sale (payments to confirm). */
export const ZAdminSaleSchema = ZSaleSchema.extend({
  advertiserId: z.number().int(),
  brand: z.string(),
  campaignId: z.number().int(),
  currency: z.enum(['eur', 'usd', 'btc']),
  /** In the currency charged: euros, dollars or bitcoins (12 decimals for bitcoins), as text. */
  amountInCurrency: z.string(),
  /** Euros. */
  amount: z.number(),
  reference: z.string(),
  invoiceNumber: z.string().nullable(),
  dueAtStr: z.string().nullable(),
  isOverdue: z.boolean(),
  /**
   * A payment that arrived after the sale was cancelled: credited, refunded through Stripe, or to be refunded by
   * hand (docs/billing.md); null otherwise.
   */
  latePayment: z.enum(['credited', 'refunded', 'refundByHand']).nullable(),
});
export type TAdminSale = z.infer<typeof ZAdminSaleSchema>;

export const SALE_FILTERS = ['toConfirm', 'pending', 'unpaid', 'paid', 'cancelled', 'all'] as const;
/** POST /api/admin/get-sales: `toConfirm` = pending Bitcoin sales and unpaid invoices. */
export const ZGetSalesRequestSchema = z.object({ state: z.enum(SALE_FILTERS).default('toConfirm') });
export const ZGetSalesResponseSchema = z.object({ sales: z.array(ZAdminSaleSchema) });

/** An unpaid invoice in the admin's list of what advertisers owe. */
export const ZOutstandingInvoiceSchema = z.object({
  saleId: z.number().int(),
  invoiceNumber: z.string().nullable(),
  /** In the invoice's currency. */
  amountStr: z.string(),
  dueAtStr: z.string(),
  /** Unpaid past its due date (30 days after it was issued). */
  isOverdue: z.boolean(),
});

/** What one advertiser owes on invoices, against its ceiling (its own, or 10 x the minimum order). */
export const ZAdvertiserOutstandingSchema = z.object({
  advertiserId: z.number().int(),
  brand: z.string(),
  /** Euros. */
  outstanding: z.number(),
  outstandingStr: z.string(),
  limitStr: z.string(),
  isDefaultLimit: z.boolean(),
  isOverLimit: z.boolean(),
  overdueCount: z.number().int(),
  overdueStr: z.string(),
  invoices: z.array(ZOutstandingInvoiceSchema),
});
export type TAdvertiserOutstanding = z.infer<typeof ZAdvertiserOutstandingSchema>;

/** POST /api/admin/get-outstanding-invoices: advertisers with unpaid invoices, most owed first. */
export const ZGetOutstandingInvoicesResponseSchema = z.object({ advertisers: z.array(ZAdvertiserOutstandingSchema) });

/**
 * POST /api/admin/update-sale. `confirm` on a cancelled Bitcoin or invoice sale records a payment that arrived
 * after the cancellation: credited, or to be refunded by hand (the network setting `latePaymentAction`).
 */
export const ZUpdateSaleRequestSchema = z.object({ saleId: id, action: z.enum(['confirm', 'cancel']) });
export type TUpdateSaleRequest = z.infer<typeof ZUpdateSaleRequestSchema>;

/** A coupon as admins see it. */
export const ZCouponSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  percentOff: z.number().nullable(),
  freeQuantity: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
  redemptions: z.number().int(),
});
export type TCoupon = z.infer<typeof ZCouponSchema>;

/** A coupon's code: 3 to 40 letters, digits, - and _ (a longer one is refused, never cut). */
export const COUPON_CODE_MIN_CHARS = 3;
export const ZCouponCodeSchema = z
  .string()
  .trim()
  .min(COUPON_CODE_MIN_CHARS)
  .max(TEXT_LIMITS.couponCode)
  .refine((code) => /^[A-Za-z0-9_-]*$/.test(code), {
    message: 'Letters, digits, - and _ only',
    ...withKey('couponCode'),
  });

/**
 * POST /api/admin/create-coupon: a percentage off (a whole number from 1 to 100) or free credits (a whole number
 * from 1), not both; an optional expiry. A value out of range is refused naming its field, never brought in range.
 */
export const ZCreateCouponRequestSchema = z
  .object({
    code: ZCouponCodeSchema,
    percentOff: z.number().int().min(1).max(100).nullable().default(null),
    freeQuantity: z.number().int().min(1).max(100_000_000).nullable().default(null),
    expiresAt: z.iso
      .datetime({ offset: true })
      .max(40)
      .refine((value) => isStorableYear(new Date(value)), { message: 'This date does not exist', ...withKey('date') })
      .nullable()
      .default(null),
  })
  .refine((coupon) => (coupon.percentOff === null) !== (coupon.freeQuantity === null), {
    message: 'A coupon gives either a percentage off or free credits',
    path: ['percentOff'],
    ...withKey('couponKind'),
  });
export type TCreateCouponRequest = z.input<typeof ZCreateCouponRequestSchema>;

export const getPurchaseCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/get-purchase',
  access: 'advertiser',
  request: ZGetPurchaseRequestSchema,
  response: ZCampaignPurchaseSchema,
});

export const updateBuyCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/update-buy',
  access: 'advertiser',
  request: ZUpdateBuyRequestSchema,
  response: ZCampaignPurchaseSchema,
});

export const buyWithBitcoinCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/buy-with-bitcoin',
  access: 'advertiser',
  request: ZBuyWithBitcoinRequestSchema,
  response: ZBuyWithBitcoinResponseSchema,
});

export const buyWithBillToPayCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/buy-with-bill-to-pay',
  access: 'advertiser',
  request: ZBuyWithBillToPayRequestSchema,
  response: ZBuyWithBillToPayResponseSchema,
});

export const applyCouponCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/apply-coupon',
  access: 'advertiser',
  request: ZApplyCouponRequestSchema,
  response: ZCampaignPurchaseSchema,
});

export const createCheckoutSessionCall = defineCall({
  method: 'POST',
  path: '/api/stripe2/create-checkout-session-campaignex',
  access: 'advertiser',
  request: null,
  query: ZCheckoutQuerySchema,
  response: ZCheckoutSessionResponseSchema,
});

/** Signed by Stripe: no session, no anti-forgery token; the signature is the gate (docs/billing.md). */
export const stripeWebhookCall = defineCall({
  method: 'POST',
  path: '/api/stripe2/webhook',
  access: 'public',
  request: null,
  signedBy: 'stripe',
  response: ZWebhookResponseSchema,
});

export const getTestCheckoutCall = defineCall({
  method: 'POST',
  path: '/api/stripe2/get-test-checkout',
  access: 'advertiser',
  request: ZTestCheckoutRequestSchema,
  response: ZTestCheckoutSchema,
});

export const payTestCheckoutCall = defineCall({
  method: 'POST',
  path: '/api/stripe2/pay-test-checkout',
  access: 'advertiser',
  request: ZTestCheckoutRequestSchema,
  response: ZPayTestCheckoutResponseSchema,
});

export const getAdvertiserSettingsCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/get-settings',
  access: 'advertiser',
  request: null,
  response: ZAdvertiserSettingsSchema,
});

export const saveAdvertiserSettingsCall = defineCall({
  method: 'POST',
  path: '/api/advertiser/save-settings',
  access: 'advertiser',
  request: ZSaveAdvertiserSettingsRequestSchema,
  response: ZStatusResponseSchema,
});

export const getSalesCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-sales',
  access: 'admin',
  request: ZGetSalesRequestSchema,
  response: ZGetSalesResponseSchema,
});

export const updateSaleCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-sale',
  access: 'admin',
  request: ZUpdateSaleRequestSchema,
  response: z.object({ status: z.literal('ok'), sale: ZAdminSaleSchema }),
});

export const getOutstandingInvoicesCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-outstanding-invoices',
  access: 'admin',
  request: null,
  response: ZGetOutstandingInvoicesResponseSchema,
});

export const getCouponsCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-coupons',
  access: 'admin',
  request: null,
  response: z.object({ coupons: z.array(ZCouponSchema) }),
});

export const createCouponCall = defineCall({
  method: 'POST',
  path: '/api/admin/create-coupon',
  access: 'admin',
  request: ZCreateCouponRequestSchema,
  response: z.object({ status: z.literal('ok'), coupon: ZCouponSchema }),
});
