import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCall } from '@helium/contracts';
import errors from './error-handler.ts';
import { requireContracts, route } from './route.ts';

const echoCall = defineCall({
  method: 'POST',
  path: '/api/test/echo',
  access: 'public',
  request: z.object({ limit: z.number().int(), name: z.string().trim().default('none') }),
  response: z.object({ total: z.number().int() }),
});
const noBodyCall = defineCall({
  method: 'POST',
  path: '/api/test/no-body',
  access: 'public',
  request: null,
  response: z.object({ got: z.string() }),
});

/** A bare app with the one error handler and two calls whose answers the test chooses. */
async function appAnswering(answer: (body: { limit: number; name: string }) => unknown) {
  const app = Fastify({ logger: false });
  await app.register(errors);
  route(app, echoCall, async ({ body }) => answer(body) as { total: number });
  route(app, noBodyCall, async ({ body }) => ({ got: String(body) }));
  return app;
}

const apps: Array<Awaited<ReturnType<typeof appAnswering>>> = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});
async function app(answer: (body: { limit: number; name: string }) => unknown) {
  const built = await appAnswering(answer);
  apps.push(built);
  return built;
}

describe('a route registered from its contract', () => {
  it('hands the handler the body as its schema parsed it (defaults and trims applied)', async () => {
    let seen: unknown = null;
    const server = await app((body) => {
      seen = body;
      return { total: body.limit * 2 };
    });
    const ok = await server.inject({ method: 'POST', url: echoCall.path, payload: { limit: 3, name: '  Ann ' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ total: 6 });
    expect(seen).toEqual({ limit: 3, name: 'Ann' });
  });

  it("answers bad input with the client's 422 naming the field, and never calls the handler", async () => {
    let called = false;
    const server = await app(() => {
      called = true;
      return { total: 0 };
    });
    const refused = await server.inject({ method: 'POST', url: echoCall.path, payload: { limit: 'x' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ status: 'invalidRequest', issues: [{ path: 'limit' }] });
    const empty = await server.inject({ method: 'POST', url: echoCall.path });
    expect(empty.statusCode).toBe(422);
    expect(called).toBe(false);
  });

  it('refuses text holding the NUL character (PostgreSQL cannot store it) with a 422 naming the field', async () => {
    let called = false;
    const server = await app(() => {
      called = true;
      return { total: 0 };
    });
    const refused = await server.inject({
      method: 'POST',
      url: echoCall.path,
      payload: { limit: 1, name: 'a\u0000b' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ status: 'invalidRequest', issues: [{ path: 'name' }] });
    expect(called).toBe(false);
  });

  it("turns an answer that breaks its contract into the server's 500, details kept out of the answer", async () => {
    const server = await app(() => ({ total: 1.5 }));
    const fault = await server.inject({ method: 'POST', url: echoCall.path, payload: { limit: 1 } });
    expect(fault.statusCode).toBe(500);
    expect(fault.json()).toEqual({ status: 'serverError', message: 'Something went wrong on our side.' });
  });

  it('answers 503 databaseUnreachable, with Retry-After, when the database cannot be reached (drizzle-wrapped too)', async () => {
    const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    for (const error of [unreachable, new Error('Failed query: select 1', { cause: unreachable })]) {
      const server = await app(() => {
        throw error;
      });
      const answer = await server.inject({ method: 'POST', url: echoCall.path, payload: { limit: 1 } });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers['retry-after']).toBe('5');
      expect(answer.json()).toMatchObject({ status: 'databaseUnreachable' });
    }
    // A statement the database refused stays a server fault.
    const refused = Object.assign(new Error('duplicate key'), { code: '23505' });
    const server = await app(() => {
      throw refused;
    });
    expect((await server.inject({ method: 'POST', url: echoCall.path, payload: { limit: 1 } })).statusCode).toBe(500);
  });

  it('sends only the fields its contract names', async () => {
    const server = await app(() => ({ total: 1, secret: 'internal' }));
    const answer = await server.inject({ method: 'POST', url: echoCall.path, payload: { limit: 1 } });
    expect(answer.json()).toEqual({ total: 1 });
  });

  it('ignores whatever is sent to a call without a body', async () => {
    const server = await app(() => ({ total: 0 }));
    const answer = await server.inject({ method: 'POST', url: noBodyCall.path, payload: { anything: 1 } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ got: 'undefined' });
  });
});

describe('requireContracts', () => {
  /** What the API scope has (csrf.ts and session.ts decorate it so). */
  const asApiScope = (scope: FastifyInstance) => {
    scope.decorate('issueXsrfCookie', () => undefined);
    scope.decorateRequest('session', null);
  };

  it('accepts a call registered from its contract in the API scope', async () => {
    const app = Fastify({ logger: false });
    requireContracts(app);
    await app.register(async (api) => {
      asApiScope(api);
      route(api, echoCall, async ({ body }) => ({ total: body.limit }));
    });
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });

  it.each([
    ['a call from its contract', (root: FastifyInstance) => route(root, echoCall, async () => ({ total: 1 }))],
    ['a GET under /api', (root: FastifyInstance) => root.get('/api/test/download', async () => 'zip')],
  ])('refuses %s registered outside the API scope (no anti-forgery or session hook would run)', async (_name, add) => {
    const app = Fastify({ logger: false });
    requireContracts(app);
    expect(() => add(app)).toThrow(/outside the API scope/);
    await app.close();
  });

  it('refuses a POST under /api without a contract, even in the API scope', async () => {
    const app = Fastify({ logger: false });
    requireContracts(app);
    await expect(
      app.register(async (api) => {
        asApiScope(api);
        api.post('/api/test/raw', async () => ({}));
      }),
    ).rejects.toThrow(/has no contract/);
    await app.close();
  });
});
