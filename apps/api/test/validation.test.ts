import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import errors from '../src/plugins/errors.ts';
import { answerWith, parseWith } from '../src/validation.ts';

const Answer = z.object({ total: z.number().int() });

async function appAnswering(value: unknown) {
  const app = Fastify({ logger: false });
  await app.register(errors);
  app.post('/check', async (request) => {
    parseWith(z.object({ limit: z.number() }), request.body);
    return answerWith(Answer, value as z.input<typeof Answer>);
  });
  return app;
}

describe('request and answer contracts', () => {
  it("bad input is the client's 422; an answer that breaks its contract is the server's 500", async () => {
    const good = await appAnswering({ total: 3 });
    const ok = await good.inject({ method: 'POST', url: '/check', payload: { limit: 1 } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ total: 3 });
    const refused = await good.inject({ method: 'POST', url: '/check', payload: { limit: 'x' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ status: 'invalidRequest', issues: [{ path: 'limit' }] });

    const broken = await appAnswering({ total: 1.5 });
    const fault = await broken.inject({ method: 'POST', url: '/check', payload: { limit: 1 } });
    expect(fault.statusCode).toBe(500);
    expect(fault.json()).toEqual({ status: 'serverError', message: 'Something went wrong on our side.' });
    await good.close();
    await broken.close();
  });
});
