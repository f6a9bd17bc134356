import { afterAll, beforeAll, expect, it } from 'vitest';
import { sentMails } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { LOW_CREDIT_ALERTS_JOB, WEEKLY_REPORTS_JOB } from './mail-reports.ts';

/*
 * Two instances on one database (two machines behind a load balancer) running the weekly reports at the same
 * moment: each mail goes once. On PostgreSQL the scheduler's claim lets one run at a time (infra/job-claims.ts); on
 * either database the unique row of each mail (sent_mails) keeps the other run from sending it again.
 */

let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  first = await buildTestApp();
  second = await buildTestApp({ shareDatabaseWith: first });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
});

it('sends each weekly report once when two instances run the job at once', async () => {
  const [a, b] = await Promise.all([
    first.app.ctx.scheduler.runNow(WEEKLY_REPORTS_JOB),
    second.app.ctx.scheduler.runNow(WEEKLY_REPORTS_JOB),
  ]);
  const rows = await first.db.select().from(sentMails);
  expect(rows.length).toBeGreaterThan(0);
  const mails = [...first.smtp.messages, ...second.smtp.messages];
  expect(mails).toHaveLength(rows.length);
  const recipients = mails.map(
    (mail) =>
      `${mail.to} ${mail.text.includes('campaign') || mail.text.includes('campagne') ? 'advertiser' : 'publisher'}`,
  );
  expect(new Set(recipients).size).toBe(recipients.length);
  const sent = (run: unknown) =>
    Object.values((run as { sent: Record<string, number> }).sent).reduce((x, y) => x + y, 0);
  expect(sent(a) + sent(b)).toBe(rows.length);
  // And again on either: nothing new.
  expect(sent(await second.app.ctx.scheduler.runNow(WEEKLY_REPORTS_JOB))).toBe(0);
  expect(sent(await first.app.ctx.scheduler.runNow(LOW_CREDIT_ALERTS_JOB))).toBe(0);
  expect(await first.db.select().from(sentMails)).toHaveLength(rows.length);
});
