import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { BROWSER_UA, campaignOfBrand, decide, onlyCampaign, publisherId, view } from '../../../test/serve-support.ts';

/*
 * Requests crafted to break the shared write of counted events: every event of a batch is written in one
 * statement, so one that the database refuses must not take the honest counts of the same batch with it.
 */

let t: TestApp;
let blog: number;
let newsletterHash: string;

beforeAll(async () => {
  t = await buildTestApp();
  blog = await publisherId(t.db, 'Demo Blog');
  newsletterHash = t.app.ctx.hashIds.encodePublisher(await publisherId(t.db, 'La Lettre Tech'));
  await onlyCampaign(t, await campaignOfBrand(t.db, 'velo-urbain.example'), { impressions: 1000 });
});
afterAll(async () => t.close());

const hostile = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'GET',
    url,
    remoteAddress: '127.0.0.1',
    headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': '10.66.0.9', ...headers },
  });

describe('hostile input in the same batch as honest counts', () => {
  it('a NUL in a page address or an issue, and an Origin of 3,600 characters, lose no honest view', async () => {
    const reader = { ip: '10.66.0.1' };
    const { ads } = await decide(t, blog, reader);
    expect(ads).toHaveLength(1);
    const longOrigin = `http://${'a'.repeat(3600)}.example`;
    const [honest, ...answers] = await Promise.all([
      view(t, ads[0]!.view, reader),
      hostile(`/serve/d?p=${blog}&w=1280&u=${encodeURIComponent('http://blog.example/a\u0000b')}`),
      hostile(`/serve/d?p=${blog}&w=1280&u=http%3A%2F%2Fx%2Fa%2500`, { origin: longOrigin }),
      hostile(`/serve/h?p=${blog}`, { origin: longOrigin }),
      hostile(`/serve/owl/${newsletterHash}/1/%00issue/image`),
      hostile(`/serve/owl/${newsletterHash}/2/${'%00'.repeat(5)}/click`),
    ]);
    expect(honest.statusCode).toBe(204);
    expect(honest.headers['x-helium-counted']).toBe('counted');
    for (const answer of answers) expect(answer.statusCode).toBeLessThan(500);
    await t.app.delivery.recorder.flush();
    const stored = (await t.db.execute(sql`select
        (select count(*)::int from pageviews where url = 'http://blog.example/ab') as "cleanPageviews",
        (select coalesce(max(length(host)), 0)::int from install_heartbeats) as "longestHost",
        (select count(*)::int from owl_issue_ads where issue = 'issue') as "cleanIssues"`)) as unknown as {
      rows: Array<Record<string, number>>;
    };
    const row = stored.rows[0]!;
    // The pageview with a NUL is kept without it; no host longer than a host name can be.
    expect(row.cleanPageviews).toBe(1);
    expect(row.longestHost).toBeLessThanOrEqual(253);
    expect(row.cleanIssues).toBe(1);
  });
});
