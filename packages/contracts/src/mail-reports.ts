import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZIdSchema } from './common.ts';

/*
 * Reports by e-mail (issue 35, point 4; docs/emails.md): the weekly summaries to advertisers and publishers, the
 * low-credit alert, each user's choice of them, the admin's preview of each mail and Run now of their timed jobs.
 */

/** The timed jobs that send them: the weekly reports (due each Monday, UTC) and the low-credit alerts (daily). */
export const MAIL_JOBS = ['weekly-reports', 'low-credit-alerts'] as const;
export const ZMailJobSchema = z.enum(MAIL_JOBS);
export type TMailJob = z.infer<typeof ZMailJobSchema>;

/** The mails: the advertiser's and the publisher's weekly summary, and the low-credit alert of a campaign. */
export const REPORT_MAIL_KINDS = ['weekly-advertiser', 'weekly-publisher', 'low-credit'] as const;
export const ZReportMailKindSchema = z.enum(REPORT_MAIL_KINDS);
export type TReportMailKind = z.infer<typeof ZReportMailKindSchema>;

/** What a run sent, by mail; `failed` counts the mails that could not go (tried again at the next run). */
export const ZMailJobRunSchema = z.object({
  job: ZMailJobSchema,
  /** The Monday (UTC) of the week the run's mails are for: the week reported, or the week of the alerts. */
  week: z.string(),
  sent: z.object({
    'weekly-advertiser': z.number().int(),
    'weekly-publisher': z.number().int(),
    'low-credit': z.number().int(),
  }),
  failed: z.number().int(),
});
export type TMailJobRun = z.infer<typeof ZMailJobRunSchema>;

/**
 * POST /api/admin/run-job: runs a timed job now, through the scheduler, with its once-only rule (never two runs at
 * once across instances, each mail once per week): a second run for the same week sends nothing new.
 */
export const runJobCall = defineCall({
  method: 'POST',
  path: '/api/admin/run-job',
  access: 'admin',
  request: z.object({ job: ZMailJobSchema }),
  response: ZMailJobRunSchema,
});

export const ZPreviewMailRequestSchema = z.object({ kind: ZReportMailKindSchema, userId: ZIdSchema });
export type TPreviewMailRequest = z.infer<typeof ZPreviewMailRequestSchema>;

export const ZMailPreviewSchema = z.object({
  to: z.string(),
  subject: z.string(),
  html: z.string(),
  text: z.string(),
  /** The `List-Unsubscribe` header's address (the signed link in the mail). */
  unsubscribeUrl: z.string(),
});
export type TMailPreview = z.infer<typeof ZMailPreviewSchema>;

/**
 * POST /api/admin/preview-mail: the mail of that kind as it would go to that user now, with the figures of the
 * last full week (a low-credit alert: about the user's campaign with the fewest days left, low or not), nothing sent. 404 for
 * an unknown user; 409 `nothingToPreview` when the user holds no account of that kind (or no campaign).
 */
export const previewMailCall = defineCall({
  method: 'POST',
  path: '/api/admin/preview-mail',
  access: 'admin',
  request: ZPreviewMailRequestSchema,
  response: ZMailPreviewSchema,
});

/** The user's choice of mails (Settings), both on unless turned off there or by an unsubscribe link. */
export const ZMailPreferencesSchema = z.object({
  weeklyReport: z.boolean(),
  lowCreditAlerts: z.boolean(),
});
export type TMailPreferences = z.infer<typeof ZMailPreferencesSchema>;

/** POST /api/common/get-mail-preferences: the signed-in user's choice. */
export const getMailPreferencesCall = defineCall({
  method: 'POST',
  path: '/api/common/get-mail-preferences',
  access: 'signedIn',
  request: null,
  response: ZMailPreferencesSchema,
});

export const ZUpdateMailPreferencesRequestSchema = ZMailPreferencesSchema.partial()
  .strict()
  .refine((value) => value.weeklyReport !== undefined || value.lowCreditAlerts !== undefined, {
    message: 'Name weeklyReport or lowCreditAlerts',
  });
export type TUpdateMailPreferencesRequest = z.input<typeof ZUpdateMailPreferencesRequestSchema>;

/** POST /api/common/update-mail-preferences: changes what it names, answers the choice now stored. */
export const updateMailPreferencesCall = defineCall({
  method: 'POST',
  path: '/api/common/update-mail-preferences',
  access: 'signedIn',
  request: ZUpdateMailPreferencesRequestSchema,
  response: ZMailPreferencesSchema,
});

export const MAIL_REPORTS_CALLS = [
  runJobCall,
  previewMailCall,
  getMailPreferencesCall,
  updateMailPreferencesCall,
] as const;
