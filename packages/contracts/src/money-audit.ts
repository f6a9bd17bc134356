import { z } from 'zod';
import { defineCall } from './call.ts';

/*
 * The money audit (issue 32; docs/admin.md "Money audit"): every invariant the product promises about money, each
 * checked by one query over the whole history. Run daily by the server and on demand by an admin; the last run
 * shows on Admin Stats.
 */

/** The checks, in the order they run and show. */
export const MONEY_AUDIT_CHECKS = [
  /** For each day: what advertisers were charged (cost + trial cost) = publisher + sales-rep + company revenue. */
  'dailyRevenueSplit',
  /** Each posted day's revenue entry of each publisher = that day's publisher revenue (and impressions). */
  'publisherRevenuePosted',
  /** Each account's stored balance = the sum of its ledger entries. */
  'ledgerBalances',
  /** Each campaign's remaining credits = bought + granted - spent. */
  'campaignCredits',
  /** Each paid or unpaid sale credited exactly once (credits and money); a pending sale not at all. */
  'salesCreditedOnce',
  /** Each cancelled sale that was credited has its credits and money reversed. */
  'cancelledSalesReversed',
  /** Each coupon used by at most one credited (paid or unpaid) sale per advertiser. */
  'couponOncePerAdvertiser',
] as const;
export type MoneyAuditCheckName = (typeof MONEY_AUDIT_CHECKS)[number];

/** Offending rows kept per check (the count says how many there were). */
export const MONEY_AUDIT_MAX_ROWS = 50;

/** An offending row: the ids and figures that disagree (amounts in micro-euros, days as YYYY-MM-DD). */
export const ZMoneyAuditRowSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export type TMoneyAuditRow = z.infer<typeof ZMoneyAuditRowSchema>;

export const ZMoneyAuditCheckSchema = z.object({
  /** One of MONEY_AUDIT_CHECKS (kept as text: a run stored before a check was renamed still reads). */
  name: z.string(),
  ok: z.boolean(),
  /** How many rows break the invariant; `rows` holds the first MONEY_AUDIT_MAX_ROWS of them. */
  count: z.number().int(),
  rows: z.array(ZMoneyAuditRowSchema).max(MONEY_AUDIT_MAX_ROWS),
});
export type TMoneyAuditCheck = z.infer<typeof ZMoneyAuditCheckSchema>;

export const ZMoneyAuditRunSchema = z.object({
  ok: z.boolean(),
  checks: z.array(ZMoneyAuditCheckSchema),
  /** When the run started (ISO 8601). */
  ranAt: z.string(),
  /** `schedule`: the daily job; `admin`: Run now. */
  trigger: z.enum(['schedule', 'admin']),
  durationMs: z.number().int(),
});
export type TMoneyAuditRun = z.infer<typeof ZMoneyAuditRunSchema>;

/** POST /api/admin/run-money-audit: runs every check now, stores the run, mails the admins if one fails. */
export const runMoneyAuditCall = defineCall({
  method: 'POST',
  path: '/api/admin/run-money-audit',
  access: 'admin',
  request: null,
  response: ZMoneyAuditRunSchema,
});

/** POST /api/admin/get-money-audit: the last run (null before the first one). */
export const getMoneyAuditCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-money-audit',
  access: 'admin',
  request: null,
  response: z.object({ last: ZMoneyAuditRunSchema.nullable() }),
});

export const MONEY_AUDIT_CALLS = [runMoneyAuditCall, getMoneyAuditCall] as const;
