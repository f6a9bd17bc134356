import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS } from '@helium/contracts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { requireContracts } from './route.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the calls of the contracts', () => {
  it('each has its route, at its path and method', () => {
    const missing = API_CALLS.filter((call) => !t.app.hasRoute({ method: call.method, url: call.path }));
    expect(missing.map((call) => call.path)).toEqual([]);
  });

  it('paths are unique', () => {
    const paths = API_CALLS.map((call) => call.path);
    expect(new Set(paths).size).toBe(paths.length);
  });

  const gated = API_CALLS.filter((call) => call.access !== 'public');
  it.each(gated.map((call) => [call.path, call] as const))('%s answers 401 when signed out', async (_path, call) => {
    const response = await t.client().post(call.path, {});
    expect(response.statusCode).toBe(401);
    expect(response.json().status).toBe('unauthenticated');
  });

  it('a signed-out caller with a bad body is told to sign in first (the gate runs before validation)', async () => {
    const response = await t.client().post('/api/advertiser/update-campaign-pause', { campaignId: 'x' });
    expect(response.statusCode).toBe(401);
  });

  it('an /api call added without a contract stops the start', async () => {
    const app = Fastify({ logger: false });
    requireContracts(app);
    expect(() => app.post('/api/common/shortcut', async () => ({ status: 'ok' }))).toThrow(/no contract/);
    await app.close();
  });
});
