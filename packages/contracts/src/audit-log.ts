import { z } from 'zod';
import { defineCall } from './call.ts';
import { ZIdSchema } from './common.ts';

/* Admin: the audit log (issue 24; docs/admin.md): who did what, when, to which record. */

/** Entries per page of the audit log. */
export const AUDIT_LOG_PAGE_SIZE = 50;

export const ZAuditEntrySchema = z.object({
  id: z.number().int(),
  /** ISO date and time. */
  when: z.string(),
  actorId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.number().int().nullable(),
  /** The details as one short line of text (`key: value, ...`). */
  details: z.string(),
  ip: z.string().nullable(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntrySchema>;

/** POST /api/admin/get-audit-log: newest first; `userId` is the actor or the user acted on. */
export const ZGetAuditLogRequestSchema = z.object({
  userId: ZIdSchema.optional(),
  action: z.string().trim().min(1).max(80).optional(),
  page: z.number().int().min(1).max(100_000).optional(),
});

export const ZAuditLogSchema = z.object({
  entries: z.array(ZAuditEntrySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every action written so far, for the filter. */
  actions: z.array(z.string()),
});
export type TAuditLog = z.infer<typeof ZAuditLogSchema>;

export const getAuditLogCall = defineCall({
  method: 'POST',
  path: '/api/admin/get-audit-log',
  access: 'admin',
  request: ZGetAuditLogRequestSchema,
  response: ZAuditLogSchema,
});

/** Calls of this feature, listed in calls.ts (issue 24). */
export const AUDIT_LOG_CALLS = [getAuditLogCall] as const;
