import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { parseExposition, total } from '../../../test/metrics-exposition.ts';
import { blogAndTwoCampaigns, decide, onlyCampaign, showOneAdOnly, view } from '../../../test/serve-support.ts';

/*
 * A batch whose connection fails while its commit is on its way (batch-outcome.ts): once the database answers, it
 * is asked whether the batch was written, and the batch's requests are answered as it was. Here the connection is
 * made to fail just after the batch's statement ran (written) or just before (not written).
 */

let t: TestApp;
let blog: number;
let bikes: number;
let failNext: 'afterCommit' | 'beforeSending' | null = null;

const connectionReset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

beforeAll(async () => {
  const database = await createTestDatabase();
  const executePrepared = database.executePrepared;
  database.executePrepared = async (statement, values) => {
    const failing = failNext;
    failNext = null;
    if (failing === 'beforeSending') throw connectionReset();
    const answer = await executePrepared(statement, values);
    if (failing === 'afterCommit') throw connectionReset();
    return answer;
  };
  t = await buildTestApp({ database });
  ({ blog, bikes } = await blogAndTwoCampaigns(t.db));
  await showOneAdOnly(t.db, bikes);
  await onlyCampaign(t, bikes, { impressions: 1000 });
});
afterAll(async () => t?.close());

async function impressionsOf(decisionId: string) {
  const { rows } = (await t.db.execute(
    sql`select (select count(*)::int from ad_impressions where decision_id = ${decisionId}) as n,
      (select coalesce(sum(impressions), 0)::int from daily_publisher_stats) as today`,
  )) as unknown as { rows: Array<{ n: number; today: number }> };
  return rows[0]!;
}

/** helium_group_commit_lost_answers_total for an outcome, as an operator's scrape (from this machine) reads it. */
async function lostAnswers(outcome: string) {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
  return total(parseExposition(response.body).samples, 'helium_group_commit_lost_answers_total', { outcome });
}

const decisionIdOf = (token: string) => Buffer.from(token.split('.')[0]!, 'base64url').toString().split('|')[1]!;

describe('a batch whose commit answer is lost', () => {
  it('written: the database is asked, the view is answered counted, and its beacon sent again is not', async () => {
    const visitor = { ip: '10.96.0.1' };
    const { ads } = await decide(t, blog, visitor);
    await t.app.delivery.recorder.flush();
    const before = await impressionsOf(decisionIdOf(ads[0]!.view));
    const writtenBefore = await lostAnswers('written');
    failNext = 'afterCommit';
    expect((await view(t, ads[0]!.view, visitor)).headers['x-helium-counted']).toBe('counted');
    expect(await lostAnswers('written')).toBe(writtenBefore + 1);
    expect((await view(t, ads[0]!.view, visitor, 0)).headers['x-helium-counted']).toBe('ignored');
    const after = await impressionsOf(decisionIdOf(ads[0]!.view));
    expect([after.n, after.today]).toEqual([1, before.today + 1]);
  });

  it('not written: the view is given back, and counted once when its beacon comes again', async () => {
    const visitor = { ip: '10.96.0.2' };
    const { ads } = await decide(t, blog, visitor);
    await t.app.delivery.recorder.flush();
    const before = await impressionsOf(decisionIdOf(ads[0]!.view));
    const notWrittenBefore = await lostAnswers('notWritten');
    failNext = 'beforeSending';
    expect((await view(t, ads[0]!.view, visitor)).headers['x-helium-counted']).toBe('ignored');
    expect(await lostAnswers('notWritten')).toBe(notWrittenBefore + 1);
    expect((await impressionsOf(decisionIdOf(ads[0]!.view))).n).toBe(0);
    // The failed batch told the recorder the database was away; the next pageview's batch says it is back.
    await decide(t, blog, { ip: '10.96.0.3' });
    await t.app.delivery.recorder.flush();
    expect((await view(t, ads[0]!.view, visitor, 0)).headers['x-helium-counted']).toBe('counted');
    const after = await impressionsOf(decisionIdOf(ads[0]!.view));
    expect([after.n, after.today]).toEqual([1, before.today + 1]);
  });
});
