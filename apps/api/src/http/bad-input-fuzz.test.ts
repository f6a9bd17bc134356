import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS, type Call } from '@helium/contracts';
import { buildTestApp, type TestApp, type TestClient } from '../../test/helper.ts';
import { CALL_SAMPLES, DEMO_CALLERS, databaseFingerprint, demoIds, type DemoIds } from '../../test/call-samples.ts';

/*
 * Bad input, generated from the contracts: for every call with a body, random bodies its zod schema refuses
 * (random JSON, and the valid sample with a field dropped, retyped or given a hostile value) are answered
 * 4xx by the allowed caller, never 5xx, and change nothing in the database.
 */

const RUNS = 40;
const NOT_COMPARED = ['sessions', 'login_codes', 'audit_log', 'user_activities'];

let t: TestApp;
let ids: DemoIds;
const clients = new Map<string, TestClient>();

beforeAll(async () => {
  t = await buildTestApp();
  ids = await demoIds(t.db);
});
afterAll(async () => {
  await t?.close();
});

async function callerOf(call: Call): Promise<TestClient> {
  const role =
    call.access === 'public' || call.access === 'signedIn' || call.access === 'advertiserOrAdmin'
      ? 'advertiser'
      : call.access;
  const cached = clients.get(role);
  if (cached) return cached;
  const client = t.client();
  await client.signIn(DEMO_CALLERS[role].email, { agree: true });
  clients.set(role, client);
  return client;
}

/** Values a careless or hostile client sends where another type is expected. */
const hostile = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(
    -1,
    0,
    2 ** 31,
    3_000_000_000,
    Number.MAX_SAFE_INTEGER,
    1.5,
    '',
    ' ',
    'x'.repeat(5000),
    '\u0000',
    'javascript:alert(1)',
    '1; drop table users',
    '../../etc/passwd',
    '__proto__',
    [],
    {},
    null,
    true,
  ),
);

/** The valid sample with one field (top level or one down) dropped, or replaced by a hostile value. */
function mutationsOf(sample: unknown): fc.Arbitrary<unknown> {
  if (typeof sample !== 'object' || sample === null || Array.isArray(sample)) return hostile;
  const entries = Object.entries(sample as Record<string, unknown>);
  if (entries.length === 0) return fc.dictionary(fc.string(), hostile);
  return fc
    .record({ index: fc.nat(entries.length - 1), drop: fc.boolean(), value: hostile, nested: fc.boolean() })
    .map(({ index, drop, value, nested }) => {
      const copy: Record<string, unknown> = structuredClone(sample as Record<string, unknown>);
      const [key, current] = entries[index]!;
      if (nested && typeof current === 'object' && current !== null && !Array.isArray(current)) {
        const inner = { ...(current as Record<string, unknown>) };
        const innerKey = Object.keys(inner)[0];
        if (innerKey !== undefined) inner[innerKey] = value;
        copy[key] = inner;
      } else if (drop) {
        delete copy[key];
      } else {
        copy[key] = value;
      }
      return copy;
    });
}

describe('bad input to every call', () => {
  const withBodies = API_CALLS.filter((call) => call.request !== null);

  it.each(withBodies.map((call) => [call.path, call] as const))(
    '%s answers random invalid bodies with a 4xx and changes nothing',
    async (_path, call) => {
      const schema = call.request!;
      const sample = CALL_SAMPLES[call.path]!.body(ids);
      const client = await callerOf(call);
      const before = await databaseFingerprint(t.db, NOT_COMPARED);
      const seen: number[] = [];
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(mutationsOf(sample), fc.jsonValue()).filter((body) => !schema.safeParse(body ?? {}).success),
          async (body) => {
            const response = await client.post(call.path, body);
            seen.push(response.statusCode);
            expect(response.statusCode, response.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
            expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
          },
        ),
        { numRuns: RUNS },
      );
      expect(seen.length).toBe(RUNS);
      expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
    },
  );

  it.each(withBodies.map((call) => [call.path, call] as const))(
    '%s never answers 5xx, whatever the body (valid or not)',
    async (_path, call) => {
      const sample = CALL_SAMPLES[call.path]!.body(ids);
      const client = await callerOf(call);
      await fc.assert(
        fc.asyncProperty(fc.oneof(mutationsOf(sample), fc.jsonValue()), async (body) => {
          const response = await client.post(call.path, body);
          expect(response.statusCode, response.body.slice(0, 300)).toBeLessThan(500);
        }),
        { numRuns: RUNS / 2 },
      );
    },
  );

  it('an id above the database integer range is a 422, not a 500', async () => {
    const client = await callerOf(API_CALLS.find((call) => call.path === '/api/advertiser/get-campaignex')!);
    const response = await client.post('/api/advertiser/get-campaignex', { campaignId: 3_000_000_000 });
    expect(response.statusCode).toBe(422);
    expect(response.json().issues[0].path).toBe('campaignId');
  });
});
