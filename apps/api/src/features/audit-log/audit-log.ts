import { and, asc, count, desc, eq, or, type SQL } from 'drizzle-orm';
import { auditLog, users, type Database } from '@helium/db';
import { AUDIT_LOG_PAGE_SIZE, type TAuditLog } from '@helium/contracts';
import type { Locale } from '@helium/domain';
import { detailsText } from './audit-details.ts';

export interface AuditLogQuery {
  /** The admin's language, which the details are written in. */
  locale: Locale;
  /** The actor, or the user acted on. */
  userId?: number;
  action?: string;
  page?: number;
}

/** One page of the audit log, newest first, with its actors' names and e-mails and every action for the filter. */
export async function listAuditLog(db: Database, query: AuditLogQuery): Promise<TAuditLog> {
  const page = query.page ?? 1;
  const pageSize = AUDIT_LOG_PAGE_SIZE;
  const conditions: SQL[] = [];
  if (query.userId !== undefined) {
    const byUser = or(
      eq(auditLog.actorUserId, query.userId),
      and(eq(auditLog.targetType, 'user'), eq(auditLog.targetId, query.userId)),
    );
    if (byUser) conditions.push(byUser);
  }
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, [counted], actions] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        createdAt: auditLog.createdAt,
        actorId: auditLog.actorUserId,
        actorName: users.name,
        actorEmail: users.email,
        action: auditLog.action,
        targetType: auditLog.targetType,
        targetId: auditLog.targetId,
        details: auditLog.details,
        ip: auditLog.ip,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ total: count() }).from(auditLog).where(where),
    db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(asc(auditLog.action)),
  ]);
  return {
    entries: rows.map((row) => ({
      id: row.id,
      when: row.createdAt.toISOString(),
      actorId: row.actorId,
      actorName: row.actorName,
      actorEmail: row.actorEmail,
      action: row.action,
      targetType: row.targetType,
      targetId: row.targetId,
      details: detailsText(row.action, row.details, query.locale),
      ip: row.ip,
    })),
    total: counted?.total ?? 0,
    page,
    pageSize,
    actions: actions.map((row) => row.action),
  };
}
