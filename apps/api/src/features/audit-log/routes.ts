import type { FastifyInstance } from 'fastify';
import { getAuditLogCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { listAuditLog } from './audit-log.ts';

/** Admin: the audit log, filtered by user and action (docs/admin.md). */
export default async function auditLogRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  route(app, getAuditLogCall, async ({ body, actor }) => listAuditLog(db, { ...body, locale: actor.locale }));
}
