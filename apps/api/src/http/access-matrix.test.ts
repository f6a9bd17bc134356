import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CALLS, type Call } from '@helium/contracts';
import { buildTestApp, postWithToken, type TestApp, type TestClient } from '../../test/helper.ts';
import {
  CALL_SAMPLES,
  samplePath,
  DEMO_CALLERS,
  databaseFingerprint,
  demoIds,
  expectedGate,
  type DemoIds,
  type MatrixRole,
} from '../../test/call-samples.ts';

/*
 * The authorisation matrix, generated from the contracts: every call x (signed out, admin, publisher,
 * advertiser, another tenant) with the answer its access says. A call added without a sample in
 * test/call-samples.ts fails here, and so does a call whose gate lets the wrong caller through.
 */

let t: TestApp;
let ids: DemoIds;
const clients = new Map<string, TestClient>();
// Sessions, sign-in codes, audit rows and user activities are what signing in and asking legitimately write.
const NOT_COMPARED = ['sessions', 'login_codes', 'audit_log', 'user_activities'];

beforeAll(async () => {
  t = await buildTestApp();
  ids = await demoIds(t.db);
});
afterAll(async () => {
  await t?.close();
});

async function signedIn(caller: keyof typeof DEMO_CALLERS, fresh = false): Promise<TestClient> {
  const cached = clients.get(caller);
  const { email, account } = DEMO_CALLERS[caller];
  // The account in use is kept on the user, and two callers are one user (multi@demo.test): switch again.
  if (cached && !fresh) {
    if (account) await useAccount(cached, account);
    return cached;
  }
  const client = t.client();
  await client.signIn(email, { agree: true });
  if (account) await useAccount(client, account);
  if (!fresh) clients.set(caller, client);
  return client;
}

async function useAccount(client: TestClient, account: { type: number; brand: string }) {
  const user = (await client.post('/api/common/user')).json();
  const list = account.type === 1 ? user.publishers : user.advertisers;
  const held = list.find((a: { brand: string }) => a.brand === account.brand);
  const switched = await client.post('/api/common/update-user', { key: 'type', value: `${account.type},${held.id}` });
  expect(switched.statusCode).toBe(200);
}

async function clientFor(role: MatrixRole, call: Call): Promise<TestClient> {
  const fresh = CALL_SAMPLES[call.path]?.endsSession === true;
  if (role === 'signedOut') return t.client();
  return signedIn(role, fresh);
}

/**
 * The only calls open without a session: sign-in, sign-out, who is signed in (null when nobody), and the
 * publisher's mailed hash link.
 */
const PUBLIC_CALLS = [
  '/api/common/signin',
  '/api/common/session',
  '/api/signout',
  '/api/common/signout',
  '/api/publisher/get-ad-validation',
  '/api/publisher/update-ad-validation',
  '/api/stripe2/webhook',
];

/** The access a path's folder means: a call declared with another one is a mistake until this list says otherwise. */
function accessOfPath(path: string): string {
  if (PUBLIC_CALLS.includes(path)) return 'public';
  const folder = path.split('/')[2];
  // The card payment calls keep the path the specification gives them; they are the advertiser's.
  if (folder === 'stripe2') return 'advertiser';
  // The places a campaign may target: advertisers pick them, admins edit campaigns (docs/targeting.md).
  if (path === '/api/locations') return 'advertiserOrAdmin';
  return folder === 'common' ? 'signedIn' : (folder ?? '');
}

describe('the authorisation matrix', () => {
  it("every call's access is the one its path says (public calls are listed here, one by one)", () => {
    const mismatched = API_CALLS.filter((call) => call.access !== accessOfPath(call.path));
    expect(mismatched.map((call) => `${call.path}: ${call.access}`)).toEqual([]);
  });

  it('every call has a sample body, so that it is in the matrix', () => {
    expect(API_CALLS.filter((call) => !CALL_SAMPLES[call.path]).map((call) => call.path)).toEqual([]);
  });

  const roles: MatrixRole[] = ['signedOut', 'admin', 'publisher', 'advertiser'];
  const cells = API_CALLS.flatMap((call) => roles.map((role) => [call.path, role, call] as const));
  it.each(cells)('%s as %s', async (_path, role, call) => {
    const sample = CALL_SAMPLES[call.path]!;
    const client = await clientFor(role, call);
    const response = await client.post(samplePath(call.path, ids), sample.body(ids));
    const expected = expectedGate(call.access, role);
    if (expected === 'allowed') {
      const allowed = response.statusCode < 300 || (sample.allowedRefusals ?? []).includes(response.statusCode);
      expect(allowed, `${response.statusCode} ${response.body.slice(0, 200)}`).toBe(true);
    } else {
      expect(response.statusCode).toBe(expected);
    }
  });

  const refusedForOthers = API_CALLS.filter((call) => CALL_SAMPLES[call.path]?.otherTenant === 'refused');
  it.each(refusedForOthers.map((call) => [call.path, call] as const))(
    "%s naming another tenant's resource is refused and changes nothing",
    async (_path, call) => {
      const other = call.access === 'publisher' ? 'otherPublisher' : 'otherAdvertiser';
      const client = await signedIn(other);
      const before = await databaseFingerprint(t.db, NOT_COMPARED);
      const response = await client.post(samplePath(call.path, ids), CALL_SAMPLES[call.path]!.body(ids));
      expect([403, 404]).toContain(response.statusCode);
      expect(await databaseFingerprint(t.db, NOT_COMPARED)).toEqual(before);
    },
  );

  const ownData = API_CALLS.filter((call) => CALL_SAMPLES[call.path]?.otherTenant === 'ownData');
  it.each(ownData.map((call) => [call.path, call] as const))(
    '%s answers another tenant with its own data, not the first tenant’s',
    async (_path, call) => {
      const first =
        call.access === 'publisher' ? 'publisher' : call.access === 'advertiser' ? 'advertiser' : 'advertiser';
      const other = call.access === 'publisher' ? 'otherPublisher' : 'otherAdvertiser';
      const mine = await (await signedIn(first)).post(samplePath(call.path, ids), CALL_SAMPLES[call.path]!.body(ids));
      const theirs = await (await signedIn(other)).post(samplePath(call.path, ids), CALL_SAMPLES[call.path]!.body(ids));
      expect(mine.statusCode).toBe(200);
      expect(theirs.statusCode).toBe(200);
      expect(theirs.body).not.toBe(mine.body);
    },
  );
});

/** The calls a personal API token may make (`token: 'read'` in their contracts): each changes nothing. */
const TOKEN_READABLE = [
  '/api/admin/get-activity',
  '/api/admin/get-stats',
  '/api/advertiser/get-ads',
  '/api/advertiser/get-campaign-countries',
  '/api/advertiser/get-campaignex',
  '/api/publisher/get-accounting',
  '/api/publisher/get-performance-history',
  '/api/publisher/get-realtime-performance',
  '/api/publisher/get-stats',
];

describe('the matrix with a personal API token instead of a session (http/bearer.ts)', () => {
  const tokens = new Map<string, string>();
  /** One token per caller, created on its session (which also switches multi@demo.test to the caller's account). */
  async function tokenOf(caller: keyof typeof DEMO_CALLERS): Promise<string> {
    const client = await signedIn(caller);
    const cached = tokens.get(caller);
    if (cached) return cached;
    const response = await client.post('/api/common/create-api-token', { name: `Matrix ${caller}` });
    expect(response.statusCode).toBe(200);
    const { token } = response.json<{ token: string }>();
    tokens.set(caller, token);
    return token;
  }

  it('only the calls listed here are readable with a token (a call marked by mistake fails here)', () => {
    const readable = API_CALLS.filter((call) => call.token === 'read').map((call) => call.path);
    expect(readable.sort()).toEqual(TOKEN_READABLE);
  });

  const tokenRoles = ['admin', 'publisher', 'advertiser'] as const;
  const readable = API_CALLS.filter((call) => call.token === 'read');
  const readCells = readable.flatMap((call) => tokenRoles.map((role) => [call.path, role, call] as const));
  it.each(readCells)('%s with a token of %s answers as its session would', async (_path, role, call) => {
    const sample = CALL_SAMPLES[call.path]!;
    const response = await postWithToken(t, await tokenOf(role), samplePath(call.path, ids), sample.body(ids));
    const expected = expectedGate(call.access, role);
    if (expected === 'allowed') {
      const allowed = response.statusCode < 300 || (sample.allowedRefusals ?? []).includes(response.statusCode);
      expect(allowed, `${response.statusCode} ${response.body.slice(0, 200)}`).toBe(true);
    } else {
      expect(response.statusCode).toBe(expected);
    }
  });

  const readableRefused = readable.filter((call) => CALL_SAMPLES[call.path]?.otherTenant === 'refused');
  it.each(readableRefused.map((call) => [call.path, call] as const))(
    "%s with another tenant's token naming the first tenant's resource is refused",
    async (_path, call) => {
      const token = await tokenOf(call.access === 'publisher' ? 'otherPublisher' : 'otherAdvertiser');
      const response = await postWithToken(t, token, samplePath(call.path, ids), CALL_SAMPLES[call.path]!.body(ids));
      expect([403, 404]).toContain(response.statusCode);
    },
  );

  it('every other call answers 403 with a token of a caller its gate lets in, and nothing changes', async () => {
    const callerOf = (access: string) => (access === 'admin' || access === 'publisher' ? access : 'advertiser');
    const others = API_CALLS.filter((call) => call.token !== 'read');
    for (const role of tokenRoles) await tokenOf(role);
    const before = await databaseFingerprint(t.db);
    const answers: string[] = [];
    for (const call of others) {
      const token = tokens.get(callerOf(call.access))!;
      const response = await postWithToken(t, token, samplePath(call.path, ids), CALL_SAMPLES[call.path]!.body(ids));
      answers.push(`${call.path} ${response.statusCode} ${response.json<{ status: string }>().status}`);
    }
    expect(answers).toEqual(others.map((call) => `${call.path} 403 apiTokenReadOnly`));
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
