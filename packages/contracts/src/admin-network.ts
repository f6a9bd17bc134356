import { z } from 'zod';
import { isBitcoinAddress } from '@helium/domain/payout-details';
import { PAYOUT_METHODS } from '@helium/domain/payouts';
import { LATE_PAYMENT_ACTIONS } from '@helium/domain/pricing';
import {
  NETWORK_SETTING_NUMBER_RULES,
  settingNumberProblem,
  type NumberSettingName,
  type SettingNumberProblem,
  type SettingNumberRule,
} from '@helium/domain/network-settings';
import { decimalPlaces } from '@helium/domain/decimals';
import { defineCall } from './call.ts';
import { singleLineText, ZIdSchema, ZLocaleSchema } from './common.ts';
import { withKey, type TIssueKey, type TIssueValues } from './issues.ts';
import { TEXT_LIMITS } from './limits.ts';
import { ZGeolocationSchema } from './locations.ts';

/*
 * Running the network (issue 24, parts 3 and 4; docs/admin.md): the network settings, append-only with their
 * history, and the onboarding of publishers, advertisers, their campaigns and users. Amounts are euros (numbers),
 * shares and discounts percents (at most 2 decimals), rates euros per dollar and per bitcoin; each number of the
 * settings is refused unless it is stored exactly as sent (its decimals and range: NETWORK_SETTING_NUMBER_RULES).
 */

/** A number stored with `decimals` decimals (basis points, micro-euros): one with more is refused, never rounded. */
const atMostDecimals = (schema: z.ZodNumber, decimals: number) =>
  schema.refine((value) => !Number.isFinite(value) || decimalPlaces(value) <= decimals, {
    message: `At most ${decimals} decimals`,
    ...withKey('decimals', { decimals }),
  });
const percent = atMostDecimals(
  z.number().min(0, 'A share cannot be negative').max(100, 'A share cannot be above 100 %'),
  2,
);
const euros = atMostDecimals(z.number().min(0, 'An amount cannot be negative').max(1_000_000_000), 6);
/** A campaign's price, euros: above 0 (a campaign at 0.00 would show ads for nothing). */
const price = atMostDecimals(z.number().positive('A price must be above 0').max(1_000_000_000), 6);
const count = z.number().int().min(0).max(1_000_000_000);

const NUMBER_PROBLEMS: Record<
  SettingNumberProblem,
  (rule: SettingNumberRule) => { message: string; key: TIssueKey; values?: TIssueValues }
> = {
  notANumber: () => ({ message: 'Expected a number', key: 'number' }),
  tooManyDecimals: (rule) =>
    rule.decimals === 0
      ? { message: 'Expected a whole number', key: 'wholeNumber' }
      : {
          message: `At most ${rule.decimals} decimals (stored exactly)`,
          key: 'decimals',
          values: { decimals: rule.decimals },
        },
  belowMin: (rule) => ({ message: `At least ${rule.min}`, key: 'atLeast', values: { min: rule.min } }),
  aboveMax: (rule) => ({ message: `At most ${rule.max}`, key: 'atMost', values: { max: rule.max } }),
};

/** A setting's number, refused (naming its rule) unless it is stored exactly as sent and within its range. */
const settingNumber = (rule: SettingNumberRule) =>
  z.number().superRefine((value, context) => {
    const problem = settingNumberProblem(value, rule);
    if (!problem) return;
    const { message, key, values } = NUMBER_PROBLEMS[problem](rule);
    context.addIssue({ code: 'custom', message, ...withKey(key, values) });
  });

/** Each number setting's schema, from its rule (packages/domain, network-settings.ts). */
function numberSettings<T>(schemaOf: (rule: SettingNumberRule) => T): Record<NumberSettingName, T> {
  const entries = Object.entries(NETWORK_SETTING_NUMBER_RULES).map(([name, rule]) => [name, schemaOf(rule)]);
  return Object.fromEntries(entries) as Record<NumberSettingName, T>;
}

/** The settings an admin edits, as the screen shows them. */
export const ZNetworkSettingsFieldsSchema = z.object({
  ...numberSettings(settingNumber),
  // Where advertisers send their bitcoins: a typo would lose their payments, so its checksum must hold.
  bitcoinAddress: singleLineText()
    .trim()
    .min(1)
    .max(TEXT_LIMITS.bitcoinAddress)
    .refine(isBitcoinAddress, {
      message: 'Not a Bitcoin address',
      ...withKey('bitcoinAddress'),
      // One reason a field: a value on two lines is refused for that alone.
      when: (payload) => (payload.issues ?? []).length === 0,
    }),
  sellerDetails: z.string().trim().min(1).max(TEXT_LIMITS.invoiceDetails),
  bankDetails: z.string().trim().min(1).max(TEXT_LIMITS.invoiceDetails),
  /** A payment that arrives for a sale cancelled meanwhile: credited (the money was taken), or refunded. */
  latePaymentAction: z.enum(LATE_PAYMENT_ACTIONS),
});
export type TNetworkSettingsFields = z.infer<typeof ZNetworkSettingsFieldsSchema>;
export type TNetworkSettingName = keyof TNetworkSettingsFields;
export const NETWORK_SETTING_NAMES = Object.keys(ZNetworkSettingsFieldsSchema.shape) as TNetworkSettingName[];

/**
 * One row of the settings as stored: the fields (a row written before the rules, or by hand, may break them:
 * `invalidFields` names those, and such a row is never in force), when they were set and by whom, and which
 * fields that row changed.
 */
export const ZNetworkSettingsSchema = z.object({
  ...numberSettings(() => z.number()),
  bitcoinAddress: z.string(),
  sellerDetails: z.string(),
  bankDetails: z.string(),
  latePaymentAction: z.enum(LATE_PAYMENT_ACTIONS),
  id: z.number().int(),
  ratesSetAt: z.string(),
  ratesSetAtStr: z.string(),
  createdAtStr: z.string(),
  createdBy: z.string().nullable(),
  changed: z.array(z.string()),
  invalidFields: z.array(z.string()),
});
export type TNetworkSettings = z.infer<typeof ZNetworkSettingsSchema>;

/**
 * POST /api/admin/get-network-settings: the settings in force (the latest row that breaks no rule) and the
 * history, newest first (50 rows, those that break a rule included and marked).
 */
export const ZGetNetworkSettingsResponseSchema = z.object({
  settings: ZNetworkSettingsSchema,
  history: z.array(ZNetworkSettingsSchema),
});
export type TGetNetworkSettingsResponse = z.infer<typeof ZGetNetworkSettingsResponseSchema>;

/**
 * POST /api/admin/update-network-settings: any subset of the settings (at least one). `expectedId`, the row the
 * screen showed, makes it a compare-and-set (409 `settingsChanged` when another admin changed them since).
 */
export const ZUpdateNetworkSettingsRequestSchema = ZNetworkSettingsFieldsSchema.partial()
  .extend({ expectedId: ZIdSchema.optional() })
  .strict()
  .refine((body) => Object.keys(body).some((key) => key !== 'expectedId'), 'Send at least one setting');
export type TUpdateNetworkSettingsRequest = z.infer<typeof ZUpdateNetworkSettingsRequestSchema>;

export const getNetworkSettingsCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-network-settings',
  access: 'admin',
  request: null,
  response: ZGetNetworkSettingsResponseSchema,
});

export const updateNetworkSettingsCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-network-settings',
  access: 'admin',
  request: ZUpdateNetworkSettingsRequestSchema,
  response: z.object({ status: z.literal('ok'), settings: ZNetworkSettingsSchema }),
});

/* ---------------------------------------------------------------- onboarding */

/** A registered domain as a publisher types it: `example.com`, without scheme or path (lower-cased). */
export const ZDomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .min(1)
  .max(TEXT_LIMITS.domain)
  .refine((domain) => /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(domain), {
    message: 'Expected a domain such as example.com',
    ...withKey('domain'),
  });
const ZBrandSchema = singleLineText().trim().min(1).max(TEXT_LIMITS.brand);
const ZEmailSchema = z.string().trim().toLowerCase().min(1).max(TEXT_LIMITS.email).email();
const ZNameSchema = singleLineText().trim().min(1).max(TEXT_LIMITS.name);
/** The e-mail of the sales rep (a user); null = none. */
const ZSalesRepSchema = ZEmailSchema.nullable();
/** The e-mail of the existing user who is to hold an account (moves the account to that user). */
const ZHolderEmailSchema = ZEmailSchema;
const ZPayoutMethodsSchema = z.array(z.enum(PAYOUT_METHODS)).max(3);

/** The campaign fields an admin sets (spec 02 section 3); prices in euros. */
export const ZCampaignFieldsSchema = z.object({
  cpm: euros,
  cpc: euros,
  isTrial: z.boolean(),
  canBuyInBtc: z.boolean(),
  canBillToPay: z.boolean(),
  isAutoPilotVisible: z.boolean(),
  canActivateAdsByPublisher: z.boolean(),
  canBudget: z.boolean(),
  doNotDiscount: z.boolean(),
});

const ZCreateCommonSchema = z.object({
  brand: ZBrandSchema,
  email: ZEmailSchema,
  /** For a new user; an existing user's name and locale are left as they are. */
  name: ZNameSchema,
  locale: ZLocaleSchema,
  salesRep: ZSalesRepSchema.optional(),
});

/**
 * POST /api/admin/create-account: a publisher (a web domain, or `newsletter: true`) or an advertiser (with its first
 * campaign, CPM or CPC), held by the user of that e-mail, created (and welcomed by e-mail) when the e-mail is new.
 */
export const ZCreateAccountRequestSchema = z.discriminatedUnion('kind', [
  ZCreateCommonSchema.extend({
    kind: z.literal('publisher'),
    domain: ZDomainSchema.optional(),
    newsletter: z.boolean().optional(),
    /** null or absent = the network's default. */
    revenueSharePct: percent.nullable().optional(),
    minBalanceForPayout: euros.nullable().optional(),
    authorizedPayoutMethods: ZPayoutMethodsSchema.optional(),
  }).strict(),
  ZCreateCommonSchema.extend({
    kind: z.literal('advertiser'),
    campaign: z
      .object({ isCpc: z.boolean(), isOwl: z.boolean().default(false), price })
      .strict()
      .default({ isCpc: false, isOwl: false, price: 2.5 }),
    /** Trial credits of the first campaign: impressions (or clicks for a CPC campaign), an entry of the ledger. */
    trialCredits: count.optional(),
  }).strict(),
]);
export type TCreateAccountRequest = z.input<typeof ZCreateAccountRequestSchema>;

export const ZCreateAccountResponseSchema = z.object({
  status: z.literal('ok'),
  kind: z.enum(['publisher', 'advertiser']),
  accountId: z.number().int(),
  userId: z.number().int(),
  userCreated: z.boolean(),
  campaignId: z.number().int().nullable(),
});
export type TCreateAccountResponse = z.infer<typeof ZCreateAccountResponseSchema>;

export const ZAdminCampaignSchema = ZCampaignFieldsSchema.extend({
  id: z.number().int(),
  /** The places it targets (location ids, none = everywhere), and their one-line summary in the admin's language. */
  geolocation: z.array(z.string()),
  geolocationStr: z.string(),
  isCpc: z.boolean(),
  isOwl: z.boolean(),
  remainingImpressions: z.number().int(),
  remainingClicks: z.number().int(),
});
export type TAdminCampaign = z.infer<typeof ZAdminCampaignSchema>;

const ZHolderSchema = z.object({
  userId: z.number().int(),
  email: z.string(),
  name: z.string(),
  locale: ZLocaleSchema,
});

export const ZAdminPublisherSchema = ZHolderSchema.extend({
  id: z.number().int(),
  brand: z.string(),
  isWeb: z.boolean(),
  isOwl: z.boolean(),
  domain: z.string().nullable(),
  isInstalled: z.boolean(),
  revenueSharePct: z.number().nullable(),
  minBalanceForPayout: z.number().nullable(),
  authorizedPayoutMethods: ZPayoutMethodsSchema,
  salesRep: z.string().nullable(),
});
export type TAdminPublisher = z.infer<typeof ZAdminPublisherSchema>;

export const ZAdminAdvertiserSchema = ZHolderSchema.extend({
  id: z.number().int(),
  brand: z.string(),
  salesRep: z.string().nullable(),
  /** The most its unpaid invoices may add up to, euros; null = 10 x the network's minimum order of direct billing. */
  invoiceLimit: z.number().nullable(),
  campaigns: z.array(ZAdminCampaignSchema),
});
export type TAdminAdvertiser = z.infer<typeof ZAdminAdvertiserSchema>;

/** POST /api/admin/get-accounts: publishers and advertisers (with their campaigns), filtered by brand or e-mail. */
export const ZGetAccountsRequestSchema = z
  .object({ search: z.string().trim().max(TEXT_LIMITS.search).default('') })
  .strict();
export const ZGetAccountsResponseSchema = z.object({
  publishers: z.array(ZAdminPublisherSchema),
  advertisers: z.array(ZAdminAdvertiserSchema),
  /** Whether more matched than the 200 of each kind sent. */
  truncated: z.boolean(),
});
export type TGetAccountsResponse = z.infer<typeof ZGetAccountsResponseSchema>;

/** POST /api/admin/update-publisher: any subset; null revenue share or minimum = the network's default. */
export const ZUpdatePublisherRequestSchema = z
  .object({
    publisherId: ZIdSchema,
    brand: ZBrandSchema.optional(),
    domain: ZDomainSchema.nullable().optional(),
    isWeb: z.boolean().optional(),
    isOwl: z.boolean().optional(),
    revenueSharePct: percent.nullable().optional(),
    minBalanceForPayout: euros.nullable().optional(),
    authorizedPayoutMethods: ZPayoutMethodsSchema.optional(),
    salesRep: ZSalesRepSchema.optional(),
    holderEmail: ZHolderEmailSchema.optional(),
  })
  .strict();
export type TUpdatePublisherRequest = z.infer<typeof ZUpdatePublisherRequestSchema>;

/** POST /api/admin/update-advertiser: its brand, sales rep, holder and ceiling of unpaid invoices (null = default). */
export const ZUpdateAdvertiserRequestSchema = z
  .object({
    advertiserId: ZIdSchema,
    brand: ZBrandSchema.optional(),
    salesRep: ZSalesRepSchema.optional(),
    holderEmail: ZHolderEmailSchema.optional(),
    invoiceLimit: euros.nullable().optional(),
  })
  .strict();
export type TUpdateAdvertiserRequest = z.infer<typeof ZUpdateAdvertiserRequestSchema>;

/**
 * POST /api/admin/update-advertiser-campaign: prices, flags and geotargeting (location ids of /api/locations, none =
 * everywhere); the pricing model of a campaign stays.
 */
export const ZUpdateAdvertiserCampaignRequestSchema = ZCampaignFieldsSchema.partial()
  .extend({ campaignId: ZIdSchema, geolocation: ZGeolocationSchema.optional() })
  .strict();
export type TUpdateAdvertiserCampaignRequest = z.infer<typeof ZUpdateAdvertiserCampaignRequestSchema>;

/** POST /api/admin/create-campaign: another campaign of an advertiser. */
export const ZCreateCampaignRequestSchema = z
  .object({ advertiserId: ZIdSchema, isCpc: z.boolean(), isOwl: z.boolean().default(false), price })
  .strict();
export type TCreateCampaignRequest = z.input<typeof ZCreateCampaignRequestSchema>;

/**
 * POST /api/admin/grant-campaign-credits: trial credits, or any other grant, added to the campaign's credit ledger
 * (impressions, or clicks for a CPC campaign).
 */
export const ZGrantCampaignCreditsRequestSchema = z
  .object({
    campaignId: ZIdSchema,
    kind: z.enum(['trial', 'grant']),
    quantity: z.number().int().positive().max(1_000_000_000),
    note: z.string().trim().max(TEXT_LIMITS.grantNote).optional(),
  })
  .strict();
export type TGrantCampaignCreditsRequest = z.infer<typeof ZGrantCampaignCreditsRequestSchema>;

/**
 * POST /api/admin/update-account-user: a user's name, e-mail and language. There is deliberately no field that
 * makes a user an admin or removes one (a strict schema: `isAdmin` is a 422).
 */
export const ZUpdateAccountUserRequestSchema = z
  .object({
    userId: ZIdSchema,
    name: ZNameSchema.optional(),
    email: ZEmailSchema.optional(),
    locale: ZLocaleSchema.optional(),
  })
  .strict();
export type TUpdateAccountUserRequest = z.infer<typeof ZUpdateAccountUserRequestSchema>;

const ok = z.object({ status: z.literal('ok') });

export const createAccountCall = defineCall({
  method: 'POST',
  path: '/api/admin/create-account',
  access: 'admin',
  request: ZCreateAccountRequestSchema,
  response: ZCreateAccountResponseSchema,
});

export const getAccountsCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-accounts',
  access: 'admin',
  request: ZGetAccountsRequestSchema,
  response: ZGetAccountsResponseSchema,
});

export const updatePublisherCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-publisher',
  access: 'admin',
  request: ZUpdatePublisherRequestSchema,
  response: ok,
});

export const updateAdvertiserCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-advertiser',
  access: 'admin',
  request: ZUpdateAdvertiserRequestSchema,
  response: ok,
});

export const updateAdvertiserCampaignCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-advertiser-campaign',
  access: 'admin',
  request: ZUpdateAdvertiserCampaignRequestSchema,
  response: ok,
});

export const createCampaignCall = defineCall({
  method: 'POST',
  path: '/api/admin/create-campaign',
  access: 'admin',
  request: ZCreateCampaignRequestSchema,
  response: z.object({ status: z.literal('ok'), campaignId: z.number().int() }),
});

export const grantCampaignCreditsCall = defineCall({
  method: 'POST',
  path: '/api/admin/grant-campaign-credits',
  access: 'admin',
  request: ZGrantCampaignCreditsRequestSchema,
  response: z.object({ status: z.literal('ok'), remaining: z.number().int() }),
});

export const updateAccountUserCall = defineCall({
  method: 'POST',
  path: '/api/admin/update-account-user',
  access: 'admin',
  request: ZUpdateAccountUserRequestSchema,
  response: ok,
});

/** Calls of this feature, listed in calls.ts (issue 24). */
export const ADMIN_NETWORK_CALLS = [
  getNetworkSettingsCall,
  updateNetworkSettingsCall,
  createAccountCall,
  getAccountsCall,
  updatePublisherCall,
  updateAdvertiserCall,
  updateAdvertiserCampaignCall,
  createCampaignCall,
  grantCampaignCreditsCall,
  updateAccountUserCall,
] as const;
