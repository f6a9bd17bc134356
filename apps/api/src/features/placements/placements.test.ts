import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, publisherPlacements, publishers } from '@helium/db';
import { buildTestApp, type TestApp, type TestClient } from '../../../test/helper.ts';
import { decide, publisherId } from '../../../test/serve-support.ts';
import { selectorFault } from './selector.ts';

let t: TestApp;
let admin: TestClient;
let blog: number;
let newsletter: number;

const SIDEBAR = { selector: '#sidebar > .ad-slot', position: 'inside', formatIds: [3], device: 'all' } as const;

beforeAll(async () => {
  t = await buildTestApp();
  admin = t.client();
  await admin.signIn('admin@demo.test');
  blog = await publisherId(t.db, 'Demo Blog');
  newsletter = await publisherId(t.db, 'La Lettre Tech');
});
afterAll(async () => t.close());

const stored = (publisher: number) =>
  t.db.select().from(publisherPlacements).where(eq(publisherPlacements.publisherId, publisher));

const update = (placements: unknown[], publisher = blog, client = admin) =>
  client.post('/api/admin/update-placements', { publisherId: publisher, placements });

describe('admin placements', () => {
  it('lists web publishers only, with their placement counts', async () => {
    const response = await admin.post('/api/admin/get-placement-publishers');
    expect(response.statusCode).toBe(200);
    const list = response.json().publishers as Array<{ id: number; brand: string; placementCount: number }>;
    expect(list.some((row) => row.id === blog && row.placementCount === 0)).toBe(true);
    expect(list.some((row) => row.id === newsletter)).toBe(false);
    expect(list.find((row) => row.brand === 'Cuisine Facile')?.placementCount).toBe(1);
  });

  it('replaces the list, audits it, and the next pageview is served there without a restart', async () => {
    const before = await decide(t, blog, { ip: '10.60.0.1' });
    expect(before.ads.map((ad) => ad.selector)).toEqual([null]);

    const response = await update([SIDEBAR, { selector: null, position: 'after', formatIds: [], device: 'mobile' }]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      publisher: { id: blog, placementCount: 2 },
      placements: [
        { ...SIDEBAR, formatIds: [3] },
        { selector: null, position: 'after', formatIds: [], device: 'mobile' },
      ],
    });
    expect(await stored(blog)).toHaveLength(2);
    const [audited] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'placements.update'));
    expect(audited).toMatchObject({ targetType: 'publisher', targetId: blog });

    // A desktop visitor: the mobile-only placement does not apply.
    const after = await decide(t, blog, { ip: '10.60.0.2' });
    expect(after.ads.map((ad) => [ad.selector, ad.position])).toEqual([['#sidebar > .ad-slot', 'inside']]);

    const read = await admin.post('/api/admin/get-placements', { publisherId: blog });
    expect(read.json().placements).toHaveLength(2);
  });

  it('an empty list gives the publisher the default placement again', async () => {
    expect((await update([])).statusCode).toBe(200);
    expect(await stored(blog)).toHaveLength(0);
    const served = await decide(t, blog, { ip: '10.60.0.3' });
    expect(served.ads.map((ad) => ad.selector)).toEqual([null]);
  });

  it('refuses a selector that does not parse, markup, or a bad enum value, and changes nothing', async () => {
    await update([SIDEBAR]);
    const auditsBefore = (await t.db.select().from(auditLog).where(eq(auditLog.action, 'placements.update'))).length;
    for (const selector of ['div[', '<script>alert(1)</script>', 'main >', 'p::before', 'a,,b']) {
      const response = await update([{ ...SIDEBAR, selector }]);
      expect(response.statusCode, selector).toBe(422);
      expect(response.json().status, selector).toBe('badSelector');
      expect(response.json().message).toContain('Placement 1');
    }
    for (const bad of [
      { ...SIDEBAR, position: 'over' },
      { ...SIDEBAR, device: 'tv' },
      { ...SIDEBAR, formatIds: [2] },
      { ...SIDEBAR, selector: '' },
      { ...SIDEBAR, extra: 1 },
    ]) {
      expect((await update([bad])).statusCode).toBe(422);
    }
    expect((await update(Array.from({ length: 21 }, () => SIDEBAR))).statusCode).toBe(422);
    expect((await stored(blog)).map((row) => row.selector)).toEqual([SIDEBAR.selector]);
    const auditsAfter = (await t.db.select().from(auditLog).where(eq(auditLog.action, 'placements.update'))).length;
    expect(auditsAfter).toBe(auditsBefore);
  });

  it('a newsletter publisher gets 409, an unknown one 404', async () => {
    expect((await admin.post('/api/admin/get-placements', { publisherId: newsletter })).statusCode).toBe(409);
    expect((await update([SIDEBAR], newsletter)).statusCode).toBe(409);
    expect(await stored(newsletter)).toHaveLength(0);
    expect((await admin.post('/api/admin/get-placements', { publisherId: 999_999 })).statusCode).toBe(404);
    expect((await update([SIDEBAR], 999_999)).statusCode).toBe(404);
  });

  it('publishers and advertisers are refused, nothing changed', async () => {
    const [row] = await t.db.select().from(publishers).where(eq(publishers.id, blog));
    expect(row).toBeDefined();
    for (const email of ['publisher@demo.test', 'advertiser@demo.test']) {
      const client = t.client();
      await client.signIn(email);
      expect((await update([], blog, client)).statusCode).toBe(403);
      expect((await client.post('/api/admin/get-placements', { publisherId: blog })).statusCode).toBe(403);
    }
    expect((await update([], blog, t.client())).statusCode).toBe(401);
    expect(await stored(blog)).toHaveLength(1);
  });
});

describe('selectorFault', () => {
  it.each([
    ['#sidebar', null],
    ['main article > p:nth-of-type(2)', null],
    ['.post + aside, [data-ad="top"]', null],
    ['div:not(.x):has(> img)', null],
  ])('accepts %s', (selector, fault) => expect(selectorFault(selector)).toBe(fault));

  it.each(['div[', '<script>', 'a >', '> a', 'p::after', 'p:hover', 'p:foo(', '', 'a\u0000b'])(
    'refuses %j',
    (selector) => expect(selectorFault(selector)).not.toBeNull(),
  );
});
