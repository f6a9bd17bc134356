import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { createLogger } from './logger.ts';

/** A stand-in for standard output: what was written, and whether it is a terminal. */
function output(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

describe('the server log', () => {
  it('writes one JSON line per entry when standard output is not a terminal', async () => {
    const out = output(false);
    const log = await createLogger('info', out);
    log.info({ job: 'daily-ledger' }, 'scheduled job ran');
    log.debug('below the level');
    expect(out.written).toHaveLength(1);
    expect(JSON.parse(out.written[0]!)).toMatchObject({ level: 30, job: 'daily-ledger', msg: 'scheduled job ran' });
  });

  it('writes readable lines for a person in a terminal, at once (nothing left in a buffer at exit)', async () => {
    const out = output(true);
    const log = await createLogger('warn', out);
    log.warn({ workers: 2 }, 'an API process stopped');
    log.info('below the level');
    expect(out.written).toHaveLength(1);
    const line = out.written[0]!;
    expect(() => JSON.parse(line)).toThrow();
    // Time, level and message on one line, then the fields, as pino-pretty lays them out.
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] .*WARN.*: .*an API process stopped/);
    expect(line).toMatch(/workers: 2/);
    expect(line).not.toContain('hostname');
  });

  it("logs a request's path without the secret of a sign-in or unsubscribe link", async () => {
    const out = output(false);
    const app = Fastify({ loggerInstance: await createLogger('info', out) });
    app.get('/unsubscribe/:token', async () => 'ok');
    app.get('/signin-as/:token', async () => 'ok');
    await app.inject({ method: 'GET', url: '/unsubscribe/12.weekly.SeCrEtSiGnAtUrE' });
    await app.inject({ method: 'GET', url: '/signin-as/OnEtImEtOkEn?next=1' });
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.close();
    const urls = out.written.map((line) => (JSON.parse(line) as { req?: { url: string } }).req?.url).filter(Boolean);
    expect(urls).toEqual(['/unsubscribe/[hidden]', '/signin-as/[hidden]?next=1', '/healthz']);
    expect(out.written.join('')).not.toMatch(/SeCrEt|OnEtImE/);
  });
});
