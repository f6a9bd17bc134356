import type { FastifyInstance } from 'fastify';
import {
  getMailPreferencesCall,
  previewMailCall,
  runJobCall,
  updateMailPreferencesCall,
  type TMailJobRun,
} from '@helium/contracts';
import { notFound } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { mailPreferences, updateMailPreferences } from './unsubscribe.ts';

/**
 * Reports by e-mail (docs/emails.md): the admin's Run now of their timed jobs and preview of each mail, and each
 * user's choice of them (Settings).
 */
export default async function mailReportsRoutes(app: FastifyInstance) {
  const { db, scheduler, mailReports } = app.ctx;

  // Through the scheduler, so that the run is claimed as a timed run is: never two at once across instances.
  route(app, runJobCall, async ({ body }) => (await scheduler.runNow(body.job)) as TMailJobRun);

  route(app, previewMailCall, async ({ body }) => mailReports.preview(body.kind, body.userId));

  route(app, getMailPreferencesCall, async ({ actor }) => {
    const preferences = await mailPreferences(db, actor.userId);
    if (!preferences) throw notFound();
    return preferences;
  });

  route(app, updateMailPreferencesCall, async ({ actor, body }) => {
    const preferences = await updateMailPreferences(db, actor.userId, body);
    if (!preferences) throw notFound();
    return preferences;
  });
}
