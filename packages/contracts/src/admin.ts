import { z } from 'zod';

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
