import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZStatusResponseSchema } from './common.ts';

export const USER_ACTIVITIES = ['advertiserOpensAddCreditsModal', 'advertiserClosesAddCreditsModal'] as const;

/** POST /api/common/user-activity */
export const ZUserActivityRequestSchema = z.object({ activityStr: z.enum(USER_ACTIVITIES) });
export type TUserActivityRequest = z.infer<typeof ZUserActivityRequestSchema>;

export const userActivityCall = defineCall({
  method: 'POST',
  path: '/api/common/user-activity',
  access: 'signedIn',
  request: ZUserActivityRequestSchema,
  response: ZStatusResponseSchema,
});
