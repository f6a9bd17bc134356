import { z } from 'zod';
import { INVALID_TRAFFIC_MAX_DAYS } from '@helium/domain/retention';
import { defineCall } from './call.ts';

/** What was set aside, per publisher, UTC day, reason and kind (docs/decisions.md section 4). */
export const ZInvalidTrafficRowSchema = z.object({
  day: z.string(),
  dayStr: z.string(),
  publisherId: z.number().int().nullable(),
  brand: z.string().nullable(),
  /** bot, rate, oneIp, ipVisitors, dataCentre, tooEarly, noEvidence, otherDomain, noCredits. */
  reason: z.string(),
  kind: z.enum(['pageview', 'impression', 'click', 'lead']),
  count: z.number().int(),
});
export type TInvalidTrafficRow = z.infer<typeof ZInvalidTrafficRowSchema>;

/** POST /api/admin/get-invalid-traffic: the last `days` UTC days (today included), newest first. */
export const ZGetInvalidTrafficRequestSchema = z.object({
  days: z.number().int().min(1).max(INVALID_TRAFFIC_MAX_DAYS).default(7),
  publisherId: z.number().int().positive().max(2_147_483_647).optional(),
});

export const getInvalidTrafficCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-invalid-traffic',
  access: 'admin',
  request: ZGetInvalidTrafficRequestSchema,
  response: z.object({ rows: z.array(ZInvalidTrafficRowSchema), total: z.number().int() }),
});

export const INVALID_TRAFFIC_CALLS = [getInvalidTrafficCall] as const;
