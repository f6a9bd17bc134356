import type { FastifyInstance } from 'fastify';
import { getPayoutsCall, updatePayoutCall } from '@helium/contracts';
import { route } from '../../http/route.ts';
import { adminPayoutView, decidePayout, listPayouts } from './payouts.ts';

/** Admin: payouts to send, and marking one paid or returned (audited, mailed to the publisher). */
export default async function adminPayoutRoutes(app: FastifyInstance) {
  const { db, clock, mailer } = app.ctx;

  route(app, getPayoutsCall, async ({ actor, body }) => {
    const rows = await listPayouts(db, body.state);
    return { payouts: rows.map((row) => adminPayoutView(row, actor.locale)) };
  });

  route(app, updatePayoutCall, async ({ actor, body, request }) => {
    const row = await decidePayout({ db, mailer, log: request.log, now: clock.now() }, body, {
      userId: actor.userId,
      ip: request.ip,
      now: clock.now(),
    });
    return { status: 'ok' as const, payout: adminPayoutView(row, actor.locale) };
  });
}
