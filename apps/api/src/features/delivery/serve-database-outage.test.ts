import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adImpressions, campaigns, openDatabase } from '@helium/db';
import { buildTestApp, type TestApp } from '../../../test/helper.ts';
import { capturedLog } from '../../../test/captured-log.ts';
import { createTestDatabase, TEST_DRIVER, type TestDatabase } from '../../../test/test-database.ts';
import { waitFor } from '../../../test/redis-server.ts';
import { TcpProxy } from '../../../test/tcp-proxy.ts';
import { blogAndTwoCampaigns, click, decide, onlyCampaign, showOneAdOnly, view } from '../../../test/serve-support.ts';

/*
 * PostgreSQL going away under a running server (docs/server-behaviour.md, "When the database or Redis is away"):
 * the server reaches its database through a relay that is cut (every connection ended, new ones refused), as a
 * database restart or a network cut does, then restored. The process stays up, serves no ad meanwhile, acknowledges
 * no view it could not write, and serves and counts again by itself.
 */

describe.runIf(TEST_DRIVER === 'postgres')('a server whose PostgreSQL goes away, then comes back', () => {
  let t: TestApp;
  let direct: TestDatabase;
  let proxy: TcpProxy;
  let blog: number;
  let bikes: number;
  const log = capturedLog('warn');

  beforeAll(async () => {
    direct = await createTestDatabase();
    const target = new URL(direct.url!);
    proxy = await TcpProxy.start(target.hostname, Number(target.port || 5432));
    const relayedUrl = proxy.via(direct.url!);
    const relayed = await openDatabase({ url: relayedUrl });
    t = await buildTestApp({
      database: { ...relayed, url: relayedUrl, drop: () => relayed.close() },
      loggerInstance: log.logger,
    });
    ({ blog, bikes } = await blogAndTwoCampaigns(direct.db));
    await showOneAdOnly(direct.db, bikes);
    await onlyCampaign(t, bikes, { impressions: 1000 });
  });
  afterAll(async () => {
    await proxy?.restore();
    await t?.close();
    await proxy?.cut();
    await direct?.drop();
  });

  const impressions = async () =>
    Number((await direct.db.select({ n: sql<number>`count(*)::int` }).from(adImpressions))[0]!.n);

  it('stays up, answers no ad and counts no view while it is away (no error), then serves and counts again', async () => {
    // A decision of earlier on (written, then forgotten by the server's memory) whose ad is clicked during the outage.
    const earlier = await decide(t, blog, { ip: '10.95.0.3' });
    await t.app.delivery.recorder.flush();
    t.clock.advance(3 * 60_000);
    t.app.delivery.sweep();
    const before = await decide(t, blog, { ip: '10.95.0.1' });
    const servedBeforeOutage = await decide(t, blog, { ip: '10.95.0.2' });
    expect((await view(t, before.ads[0]!.view, { ip: '10.95.0.1' })).headers['x-helium-counted']).toBe('counted');
    const counted = await impressions();

    // A transaction under way when the connection is cut fails (its request answers an error), the process lives on.
    const underWay = t.db
      .transaction(async (tx) => tx.execute(sql`select pg_sleep(3)`))
      .then(
        () => 'committed',
        () => 'failed',
      );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await proxy.cut();
    expect(await underWay).toBe('failed');
    // A click on the earlier ad, whose decision must be read from the database: the visitor reaches the ad's page,
    // and the outage is logged (the first the delivery meets: the failed batches below are then within its minute).
    const clickedDuring = await click(t, earlier.ads[0]!.click, { ip: '10.95.0.3' });
    expect(clickedDuring.statusCode).toBe(302);
    expect(clickedDuring.headers.location).toContain('hclid=unrecorded');
    expect(clickedDuring.headers['x-helium-counted']).toBe('ignored');
    expect(log.lines.filter((line) => line.msg === 'ad delivery: reading or writing events failed')).toHaveLength(1);
    // The first decisions' batch finds the database away; from then on no ad is promised. No answer is an error.
    for (let visitor = 1; visitor <= 3; visitor++) {
      const during = await decide(t, blog, { ip: `10.95.1.${visitor}` });
      expect(during.response.statusCode).toBe(200);
      await t.app.delivery.recorder.flush();
    }
    expect((await decide(t, blog, { ip: '10.95.1.9' })).ads).toEqual([]);
    // A view beacon that cannot be written is answered as Redis away has it: not counted (no error), and the view
    // stays countable.
    const beacon = await view(t, servedBeforeOutage.ads[0]!.view, { ip: '10.95.0.2' });
    expect(beacon.statusCode).toBe(204);
    expect(beacon.headers['x-helium-counted']).toBe('ignored');
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'databaseUnreachable' });
    expect(await impressions()).toBe(counted);
    // A conversion pixel still answers its image; a postback fails (503), so that it is sent again.
    const pixel = await t.app.inject({ method: 'GET', url: '/serve/l?hclid=abcdefgh12345678' });
    expect([pixel.statusCode, pixel.headers['content-type'], pixel.headers['x-helium-counted']]).toEqual([
      200,
      'image/gif',
      'ignored',
    ]);
    const postback = await t.app.inject({ method: 'POST', url: '/serve/lead', payload: { hclid: 'abcdefgh12345678' } });
    expect(postback.statusCode).toBe(503);

    await proxy.restore();
    await waitFor(async () => (await decide(t, blog, { ip: '10.95.2.1' })).ads.length === 1, 'ads again', 15_000);
    // The beacon the outage refused, sent again, counts once.
    const again = await view(t, servedBeforeOutage.ads[0]!.view, { ip: '10.95.0.2' }, 0);
    expect(again.headers['x-helium-counted']).toBe('counted');
    expect(await impressions()).toBe(counted + 1);
    const [campaign] = await direct.db.select().from(campaigns).where(eq(campaigns.id, bikes));
    expect(campaign!.remainingImpressions).toBe(1000 - 2);
  });
});
