import { z } from 'zod';
import { isHttpLink } from '@helium/domain/ads';
import { isSingleLineText } from '@helium/domain/text';
import { withKey, ZIssueSchema } from './issues.ts';
import { TEXT_LIMITS } from './limits.ts';

export const ZLocaleSchema = z.enum(['en', 'fr']);
export const ZCurrencySchema = z.enum(['eur', 'usd', 'btc']);
export const ZUserTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

/** Every call answers this shape on a refused request (4xx); `status` is a stable key. */
export const ZErrorResponseSchema = z.object({
  status: z.string(),
  message: z.string(),
  /** A 422's fields at fault, each with its reason (issues.ts). */
  issues: z.array(ZIssueSchema).optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponseSchema>;

export const ZStatusResponseSchema = z.object({ status: z.string() });
export type TStatusResponse = z.infer<typeof ZStatusResponseSchema>;

/** An http(s) link; anything else (javascript:, data:, ftp:) is refused. */
export const ZSafeUrlSchema = z
  .string()
  .trim()
  .max(TEXT_LIMITS.link)
  .refine(isHttpLink, {
    message: 'Only http and https links to a host, without a user name or control characters, are accepted',
    ...withKey('link'),
  });

/**
 * A text that stays on one line: a name, a brand, a title (issue 32). Refused, naming the field, when it holds a
 * control character (CR, LF, tab, NUL, the rest of C0 and C1) anywhere, before any trimming; chain the field's own
 * rules after it: `singleLineText().trim().min(1).max(120)`.
 */
export const singleLineText = () =>
  z.string().refine(isSingleLineText, {
    message: 'Line breaks, tabs, control and invisible characters are not allowed',
    ...withKey('singleLine'),
  });

/** A database id as a call takes it: a positive 32-bit integer. */
export const ZIdSchema = z.number().int().positive().max(2_147_483_647);

/**
 * Whether an instant's year is one a database date can hold and a calendar shows: 1 to 9999. JavaScript's dates
 * accept a year 0, which PostgreSQL refuses (there is no year 0), so it must be refused here, naming the field.
 */
export const isStorableYear = (date: Date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999;

/** A calendar day `YYYY-MM-DD` that exists (2026-02-30 and 0000-01-01 are refused). */
export const ZDayStringSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date as YYYY-MM-DD')
  .refine(
    (value) => {
      const date = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && isStorableYear(date) && date.toISOString().slice(0, 10) === value;
    },
    { message: 'This date does not exist', ...withKey('date') },
  );
