import type { FastifyInstance } from 'fastify';
import { getMoneyAuditCall, runMoneyAuditCall } from '@helium/contracts';
import { route } from '../../http/route.ts';

/** Admin: the money audit, run now or its last run (docs/admin.md "Money audit"). */
export default async function moneyAuditRoutes(app: FastifyInstance) {
  const { moneyAudit } = app.ctx;
  route(app, runMoneyAuditCall, async ({ actor }) => moneyAudit.run('admin', actor.userId));
  route(app, getMoneyAuditCall, async () => ({ last: await moneyAudit.latest() }));
}
