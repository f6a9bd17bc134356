import { z } from 'zod';
import { PAYOUT_CURRENCIES, PAYOUT_METHODS } from '@helium/domain/payouts';
import { isMultiLineText } from '@helium/domain/text';
import { defineCall } from './call.ts';
import { singleLineText, ZIdSchema, ZStatusResponseSchema } from './common.ts';
import { ZAdMediaSchema } from './ads.ts';
import { TEXT_LIMITS } from './limits.ts';
import { withKey } from './issues.ts';

/*
 * Money out (specification 02, sections 2.5, 2.6, 2.8, 3 and 7; docs/payouts.md). Amounts shown are euros
 * (numbers); the server computes every payout amount itself: what the browser sends is compared and logged.
 */

export const ZPayoutMethodSchema = z.enum(PAYOUT_METHODS);
export const ZPayoutCurrencySchema = z.enum(PAYOUT_CURRENCIES);

/** One line of the publisher's ledger, newest first, with the balance after it. */
export const ZTransactionSchema = z.object({
  id: z.number().int(),
  dayStr: z.string(),
  amount: z.number(),
  impressions: z.number().int(),
  /** revenue, payout, payoutReturned, adjustment: translated. */
  type: z.string(),
  typeStr: z.string(),
  note: z.string().nullable(),
  balance: z.number(),
});
export type TTransaction = z.infer<typeof ZTransactionSchema>;

export const ZPendingPayoutSchema = z.object({
  id: z.number().int(),
  method: ZPayoutMethodSchema,
  currency: ZPayoutCurrencySchema,
  amountStr: z.string(),
  createdAtStr: z.string(),
});

/** POST /api/publisher/get-accounting: the accounting data (section 3). */
export const ZAccountingSchema = z.object({
  publisher: z.object({
    id: z.number().int(),
    brand: z.string(),
    is_installed: z.boolean(),
    payout_bitcoin: z.string().nullable(),
    payout_paypal: z.string().nullable(),
    canPayoutBitcoin: z.boolean(),
    canPayoutPaypal: z.boolean(),
    canPayoutWire: z.boolean(),
  }),
  totalRevenues: z.number(),
  balance: z.number(),
  balanceSign: z.enum(['positive', 'zero', 'negative']),
  /** EUR transfer fees by method (USD and Bitcoin pay none). */
  transferFees: z.object({ paypal: z.number(), wire: z.number() }),
  canPayout: z.boolean(),
  canPayoutBitcoin: z.boolean(),
  canPayoutPaypal: z.boolean(),
  canPayoutWire: z.boolean(),
  minBalanceForPayout: z.number(),
  authorizedPayoutMethods: z.array(ZPayoutMethodSchema),
  configuredPayoutMethods: z.array(ZPayoutMethodSchema),
  pendingPayout: ZPendingPayoutSchema.nullable(),
  /** Euros per dollar and per bitcoin (decimal strings), for the amounts the menus show. */
  usd_to_eur: z.string(),
  btc_to_eur: z.string(),
  transactions: z.array(ZTransactionSchema),
});
export type TAccounting = z.infer<typeof ZAccountingSchema>;

export const ZGetAccountingRequestSchema = z.object({ sortBy: z.string().max(40).optional() });

/** POST /api/publisher/request-payout: the amounts are what the screen showed (logged when they differ). */
export const ZRequestPayoutRequestSchema = z.object({
  balance: z.number().optional(),
  transferFees: z.number().optional(),
  amountToTransferInEurStr: z.string().max(60).optional(),
  amountToTransferInUsdStr: z.string().max(60).optional(),
  amountToTransferInBtcStr: z.string().max(60).optional(),
  method: ZPayoutMethodSchema,
  currency: ZPayoutCurrencySchema,
});
export type TRequestPayoutRequest = z.infer<typeof ZRequestPayoutRequestSchema>;
export const ZRequestPayoutResponseSchema = z.object({ status: z.literal('ok'), payoutId: z.number().int() });

/** One ad's figures on one day (section 3, stats summary day). */
export const ZStatsAdSchema = z.object({
  ad: ZAdMediaSchema,
  impressions: z.number().int(),
  clicks: z.number().int(),
  ctr: z.number(),
  publisherRevenue: z.number(),
});
export const ZStatsWebAdSchema = ZStatsAdSchema.extend({
  desktopImpressions: z.number().int(),
  mobileImpressions: z.number().int(),
  desktopClicks: z.number().int(),
  mobileClicks: z.number().int(),
  desktopImpressionsPct: z.number(),
  mobileImpressionsPct: z.number(),
  desktopClicksPct: z.number(),
  mobileClicksPct: z.number(),
});
export const ZStatsDaySchema = z.object({
  day: z.string(),
  dayStr: z.string(),
  totalImpressions: z.number().int(),
  /** The day's publisher revenue: equal to that day's revenue line in Accounting once the day is closed. */
  totalRevenue: z.number(),
  owlAds: z.array(ZStatsAdSchema),
  webAds: z.array(ZStatsWebAdSchema),
});
export type TStatsDay = z.infer<typeof ZStatsDaySchema>;

/** POST /api/publisher/get-stats */
export const ZPublisherStatsSchema = z.object({
  isAnySummaries: z.boolean(),
  newSummaryDays: z.array(ZStatsDaySchema),
  totalRevenues: z.number(),
  publisher: z.object({ id: z.number().int(), brand: z.string(), isWeb: z.boolean(), isOwl: z.boolean() }),
});
export type TPublisherStats = z.infer<typeof ZPublisherStatsSchema>;

/** Payout details per method (section 3): as get-settings answers them and save-settings takes them. */
const DETAIL = TEXT_LIMITS.payoutDetails;
export const ZBitcoinDetailsSchema = z.object({ address: z.string().trim().max(DETAIL.address) });
export const ZPaypalDetailsSchema = z.object({ email: z.string().trim().max(DETAIL.email) });
export const ZWireDetailsSchema = z.object({
  bankName: z.string().trim().max(DETAIL.bankName),
  bic: z.string().trim().max(DETAIL.bic),
  iban: z.string().trim().max(DETAIL.iban),
  userName: z.string().trim().max(DETAIL.userName),
  userAddress: z.string().trim().max(DETAIL.userAddress),
  userPhoneNumber: z.string().trim().max(DETAIL.userPhoneNumber),
});

/** POST /api/publisher/get-settings */
export const ZPublisherSettingsSchema = z.object({
  authorizedPayoutMethods: z.array(ZPayoutMethodSchema),
  form: z.object({
    bitcoin: ZBitcoinDetailsSchema,
    paypal: ZPaypalDetailsSchema,
    wire: ZWireDetailsSchema,
  }),
});
export type TPublisherSettings = z.infer<typeof ZPublisherSettingsSchema>;

/**
 * POST /api/publisher/save-settings: one method's details. The shape is checked here; the rules (a bitcoin address
 * with its checksum, an e-mail, an IBAN with its checksum, a BIC's shape) answer 422 with the first failing field.
 */
export const ZSavePublisherSettingsRequestSchema = z.discriminatedUnion('field', [
  z.object({ field: z.literal('bitcoin'), data: ZBitcoinDetailsSchema }),
  z.object({ field: z.literal('paypal'), data: ZPaypalDetailsSchema }),
  z.object({
    field: z.literal('wire'),
    // What the admin reads before sending a wire holds no control, direction or invisible character (a holder's
    // name stored reversed shows as another's; issue 32): one line each, but the postal address. What is stored is
    // answered as it is.
    data: ZWireDetailsSchema.extend({
      bankName: singleLineText().trim().max(DETAIL.bankName),
      bic: singleLineText().trim().max(DETAIL.bic),
      iban: singleLineText().trim().max(DETAIL.iban),
      userName: singleLineText().trim().max(DETAIL.userName),
      userAddress: z
        .string()
        .refine(isMultiLineText, {
          message: 'Tabs, control and invisible characters are not allowed',
          ...withKey('format'),
        })
        .trim()
        .max(DETAIL.userAddress),
      userPhoneNumber: singleLineText().trim().max(DETAIL.userPhoneNumber),
    }),
  }),
]);
export type TSavePublisherSettingsRequest = z.infer<typeof ZSavePublisherSettingsRequestSchema>;

/** A payout as admins send it. */
export const ZAdminPayoutSchema = z.object({
  id: z.number().int(),
  publisherId: z.number().int(),
  brand: z.string(),
  email: z.string(),
  method: ZPayoutMethodSchema,
  currency: ZPayoutCurrencySchema,
  state: z.enum(['pending', 'paid', 'returned']),
  /** The balance debited and the fee (euros); what to send, in its currency, as text. */
  amount: z.number(),
  transferFee: z.number(),
  amountToSendStr: z.string(),
  /** Where the money goes: the method's details when it was asked. */
  details: z.record(z.string(), z.string()),
  createdAtStr: z.string(),
  decidedAtStr: z.string().nullable(),
  reference: z.string().nullable(),
  reason: z.string().nullable(),
});
export type TAdminPayout = z.infer<typeof ZAdminPayoutSchema>;

export const ZGetPayoutsRequestSchema = z.object({
  state: z.enum(['pending', 'paid', 'returned', 'all']).default('pending'),
});

/** POST /api/admin/update-payout: paid with the transfer reference, or returned with the reason. */
export const ZUpdatePayoutRequestSchema = z.discriminatedUnion('action', [
  z.object({
    payoutId: ZIdSchema,
    action: z.literal('paid'),
    reference: z.string().trim().min(1).max(TEXT_LIMITS.payoutReference),
  }),
  z.object({
    payoutId: ZIdSchema,
    action: z.literal('returned'),
    reason: z.string().trim().min(1).max(TEXT_LIMITS.payoutReason),
  }),
]);
export type TUpdatePayoutRequest = z.infer<typeof ZUpdatePayoutRequestSchema>;

export const getAccountingCall = defineCall({
  method: 'POST',
  path: '/api/publisher/get-accounting',
  access: 'publisher',
  token: 'read',
  request: ZGetAccountingRequestSchema,
  response: ZAccountingSchema,
});

export const requestPayoutCall = defineCall({
  method: 'POST',
  path: '/api/publisher/request-payout',
  access: 'publisher',
  refusedWhileActing: true,
  request: ZRequestPayoutRequestSchema,
  response: ZRequestPayoutResponseSchema,
});

export const getPublisherStatsCall = defineCall({
  method: 'POST',
  path: '/api/publisher/get-stats',
  access: 'publisher',
  token: 'read',
  request: ZGetAccountingRequestSchema,
  response: ZPublisherStatsSchema,
});

export const getPublisherSettingsCall = defineCall({
  method: 'POST',
  path: '/api/publisher/get-settings',
  access: 'publisher',
  request: null,
  response: ZPublisherSettingsSchema,
});

export const savePublisherSettingsCall = defineCall({
  method: 'POST',
  path: '/api/publisher/save-settings',
  access: 'publisher',
  refusedWhileActing: true,
  request: ZSavePublisherSettingsRequestSchema,
  response: ZStatusResponseSchema,
});

export const getPayoutsCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-payouts',
  access: 'admin',
  request: ZGetPayoutsRequestSchema,
  response: z.object({ payouts: z.array(ZAdminPayoutSchema) }),
});

export const updatePayoutCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-payout',
  access: 'admin',
  request: ZUpdatePayoutRequestSchema,
  response: z.object({ status: z.literal('ok'), payout: ZAdminPayoutSchema }),
});
