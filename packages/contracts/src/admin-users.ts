import { z } from 'zod';
import { defineCall } from './call.ts';

export const ZAdminUserRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  publisher_ids: z.array(z.number().int()),
  advertiser_ids: z.array(z.number().int()),
});

/** POST /api/admin/get-users */
export const ZAdminUsersResponseSchema = z.object({ users: z.array(ZAdminUserRowSchema) });
export type TAdminUsersResponse = z.infer<typeof ZAdminUsersResponseSchema>;

export const getUsersCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-users',
  access: 'admin',
  request: null,
  response: ZAdminUsersResponseSchema,
});
