import { z } from 'zod';
import { httpUrl } from '@helium/domain/delivery/addresses';

export const ZLocaleSchema = z.enum(['en', 'fr']);
export const ZCurrencySchema = z.enum(['eur', 'usd', 'btc']);
export const ZUserTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

/** Every call answers this shape on a refused request (4xx); `status` is a stable key. */
export const ZErrorResponseSchema = z.object({
  status: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type TErrorResponse = z.infer<typeof ZErrorResponseSchema>;

export const ZStatusResponseSchema = z.object({ status: z.string() });
export type TStatusResponse = z.infer<typeof ZStatusResponseSchema>;

/** An http(s) link; anything else (javascript:, data:, ftp:) is refused. */
export const ZSafeUrlSchema = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => httpUrl(value) !== null, 'Only http and https links are accepted');
