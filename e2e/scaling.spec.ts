import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { MIN_VIEW_MS } from '@helium/domain';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DAILY_LEDGER_JOB } from '../apps/api/src/features/revenue-ledger/daily-ledger.ts';
import { tokenFields } from '../apps/api/test/serve-support.ts';
import { DEMO_BLOG_ID, eventually } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';
import {
  apiCaller,
  childPids,
  onItsOwnConnection,
  randomPng,
  startInstances,
  withClient,
  withFreshDatabase,
  type Answer,
} from './support/scaling.ts';

/*
 * The product run as several processes and machines on one PostgreSQL and one Redis (docs/configuration.md):
 * WORKERS=N API processes on one port, and separate instances on other ports, counting and serving as one network.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
/** A PostgreSQL server the tests may create databases on, and a Redis (as the API tests' api-postgres project). */
const POSTGRES_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** A visitor of the demo blog behind the local reverse proxy (X-Forwarded-For is trusted from loopback). */
const visitorHeaders = (ip: string) => ({ 'user-agent': UA, 'x-forwarded-for': ip, origin: 'http://localhost' });

const decisionPath = (page: string) =>
  `/serve/d?p=${DEMO_BLOG_ID}&w=1280&u=${encodeURIComponent(`http://localhost/${page}`)}`;

/** Stops every product given (SIGTERM: WORKERS' primary stops its API processes first). */
async function stopAll(products: Array<Product | null>) {
  await Promise.all(products.map((product) => product?.stop()));
}

async function campaignsBelowZero(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from campaigns where remaining_impressions < 0 or remaining_clicks < 0',
  );
  return rows[0]!.n;
}

// Several processes share a network only through PostgreSQL and Redis: without both there is nothing to test
// (WORKERS>1 refuses to start, and the embedded database is one process's).
describe.runIf(POSTGRES_URL && REDIS_URL)('several processes and machines on one PostgreSQL and Redis', () => {
  it('WORKERS=2 without REDIS_URL stops at once, naming REDIS_URL, before touching the database', async () => {
    await withFreshDatabase(POSTGRES_URL!, async (databaseUrl) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'helium-e2e-'));
      const startedAt = Date.now();
      try {
        const refusal = await startProduct(
          { DATABASE_URL: databaseUrl, REDIS_URL: '', WORKERS: '2' },
          { dataDir },
        ).then(
          async (started) => {
            await started.stop();
            return 'started';
          },
          (error: Error) => error.message,
        );
        expect(refusal).toMatch(/^The product exited early/);
        expect(refusal).toContain('WORKERS=2 needs REDIS_URL');
        // DATABASE_URL is given: only what is missing is named.
        expect(refusal).not.toContain('DATABASE_URL');
        // It exits: it does not wait for anything (a lock, a connection) first.
        expect(Date.now() - startedAt).toBeLessThan(15_000);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      // Refused before the migrations: the database is as it was created.
      const tables = await withClient(databaseUrl, async (client) => {
        const { rows } = await client.query<{ n: number }>(
          "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
        );
        return rows[0]!.n;
      });
      expect(tables).toBe(0);
    });
  });

  it(
    'WORKERS=2: a worker killed with SIGKILL amid view beacons loses no acknowledged view, counts none twice, and is replaced; both killed at once are too',
    { timeout: 150_000 },
    async () => {
      await withFreshDatabase(POSTGRES_URL!, async (databaseUrl) => {
        let product: Product | null = null;
        try {
          // LOG_LEVEL info: each API process logs the line saying it serves, with its process id.
          product = await startProduct({
            DATABASE_URL: databaseUrl,
            REDIS_URL: REDIS_URL!,
            WORKERS: '2',
            LOG_LEVEL: 'info',
          });
          const started = product;
          const serving = (pid: number) => started.output.join('').includes(`process ${pid})`);
          const workers = await eventually(
            () => childPids(started.pid),
            (pids) => pids.length === 2 && pids.every(serving),
            30_000,
          );

          const before = await withClient(databaseUrl, async (client) => {
            const { rows } = await client.query<{ id: number; impressions: number; billed: number; isCpc: boolean }>(
              `select c.id, c.remaining_impressions as impressions, c.is_cpc as "isCpc",
                (select count(*)::int from ad_impressions i where i.campaign_id = c.id and i.invalid_reason is null)
                  as billed
              from campaigns c`,
            );
            return new Map(rows.map((row) => [row.id, row]));
          });

          // Decisions from 120 visitors, each on a connection of its own: both API processes decide.
          const VISITORS = 120;
          const ipOf = (visitor: number) => `198.51.100.${visitor + 1}`;
          const beacons: Array<{ token: string; decisionId: string; visitor: number }> = [];
          for (let first = 0; first < VISITORS; first += 12) {
            const batch = Array.from({ length: Math.min(12, VISITORS - first) }, (_, index) => first + index);
            const answers = await Promise.all(
              batch.map((visitor) =>
                onItsOwnConnection(`${started.url}${decisionPath(`scaling/${visitor}`)}`, {
                  headers: visitorHeaders(ipOf(visitor)),
                }),
              ),
            );
            answers.forEach((answer, index) => {
              expect(answer.status).toBe(200);
              expect(answer.headers['x-helium-counted']).toBe('counted');
              const { ads } = JSON.parse(answer.body.toString()) as { ads: Array<{ view: string }> };
              expect(ads).toHaveLength(1);
              const token = ads[0]!.view;
              beacons.push({ token, decisionId: tokenFields(token)[1]!, visitor: batch[index]! });
            });
          }
          // The script sends a view once its ad has been in view for a second: earlier beacons are set aside.
          await new Promise((resolve) => setTimeout(resolve, MIN_VIEW_MS.image + 100));

          type Outcome = { beacon: (typeof beacons)[number]; answer: Answer | null };
          const send = (beacon: (typeof beacons)[number]): Promise<Outcome> =>
            onItsOwnConnection(`${started.url}/serve/v`, {
              method: 'POST',
              // As sendBeacon sends it from the page: text/plain, with the page's Origin.
              headers: { ...visitorHeaders(ipOf(beacon.visitor)), 'content-type': 'text/plain' },
              body: beacon.token,
            }).then(
              (answer) => ({ beacon, answer }),
              () => ({ beacon, answer: null }),
            );
          const inWaves = async (list: typeof beacons, size = 10) => {
            const outcomes: Outcome[] = [];
            for (let first = 0; first < list.length; first += size) {
              outcomes.push(...(await Promise.all(list.slice(first, first + size).map(send))));
            }
            return outcomes;
          };
          const isCounted = (outcome: Outcome) =>
            outcome.answer?.status === 204 && outcome.answer.headers['x-helium-counted'] === 'counted';

          // A first part of the beacons, answered by both processes.
          const beforeKill = await inWaves(beacons.slice(0, 40));
          expect(beforeKill.filter(isCounted)).toHaveLength(40);
          // GET /metrics answers for both processes, whichever is asked (each scrape on a connection of its own).
          for (let scrape = 0; scrape < 2; scrape++) {
            const metrics = (await onItsOwnConnection(`${started.url}/metrics`)).body.toString();
            expect(metrics).toMatch(/^helium_decision_seconds_count 120$/m);
            expect(metrics).toMatch(/^helium_view_seconds_count 40$/m);
          }

          // A wave in flight when one process is killed: it goes as soon as the first of the wave is answered.
          const victim = workers[0]!;
          let killedAt = 0;
          const killWave = await Promise.all(
            beacons.slice(40, 60).map((beacon) =>
              send(beacon).then((outcome) => {
                if (!killedAt) {
                  killedAt = Date.now();
                  process.kill(victim, 'SIGKILL');
                }
                return outcome;
              }),
            ),
          );
          // Those answered were answered as usual; the others got no answer (their connection was cut).
          for (const outcome of killWave) if (outcome.answer) expect(isCounted(outcome)).toBe(true);

          // The beacons go on while one process serves, and those that got no answer are sent again (a lost
          // answer may hide a view already counted: it must not count twice).
          const afterKill = await inWaves(beacons.slice(60, 90));
          expect(afterKill.filter(isCounted)).toHaveLength(30);
          const resent = await inWaves(killWave.filter((outcome) => !outcome.answer).map((outcome) => outcome.beacon));
          for (const outcome of resent) {
            expect(outcome.answer?.status).toBe(204);
            expect(['counted', 'ignored']).toContain(outcome.answer?.headers['x-helium-counted']);
          }

          // The killed process is replaced: two children again within 15 s, one of them new, and it serves (its
          // start, as the first ones', may take tens of seconds on a loaded machine).
          const replaced = await eventually(
            () => childPids(started.pid),
            (pids) => pids.length === 2 && !pids.includes(victim),
            Math.max(1_000, killedAt + 15_000 - Date.now()),
          );
          expect(replaced).toContain(workers[1]);
          await eventually(
            async () => replaced.every(serving),
            (ready) => ready,
            45_000,
          );
          for (let index = 0; index < 4; index++) {
            expect((await onItsOwnConnection(`${started.url}/healthz`)).status).toBe(200);
          }

          // The last beacons, answered by the surviving process and its replacement, then some counted ones again.
          const afterReplacement = await inWaves(beacons.slice(90));
          expect(afterReplacement.filter(isCounted)).toHaveLength(beacons.length - 90);
          const repeats = await inWaves(beforeKill.slice(0, 10).map((outcome) => outcome.beacon));
          expect(repeats.map((outcome) => outcome.answer?.headers['x-helium-counted'])).toEqual(
            Array(10).fill('ignored'),
          );

          const acknowledged = [...beforeKill, ...killWave, ...afterKill, ...resent, ...afterReplacement]
            .filter(isCounted)
            .map((outcome) => outcome.beacon.decisionId);
          expect(new Set(acknowledged).size).toBe(acknowledged.length);
          expect(acknowledged.length).toBeGreaterThanOrEqual(100);

          await withClient(databaseUrl, async (client) => {
            // Every acknowledged view is one billed impression of its decision.
            const { rows: counted } = await client.query<{ decisionId: string; n: number; invalid: number }>(
              `select decision_id as "decisionId", count(*)::int as n,
                count(*) filter (where invalid_reason is not null)::int as invalid
              from ad_impressions where decision_id = any($1) group by decision_id`,
              [acknowledged],
            );
            expect(counted).toHaveLength(acknowledged.length);
            expect(counted.filter((row) => row.n !== 1 || row.invalid !== 0)).toEqual([]);
            const { rows: twice } = await client.query(
              'select decision_id from ad_impressions group by decision_id having count(*) > 1',
            );
            expect(twice).toEqual([]);

            // Credits: each impression-priced campaign lost exactly one impression per billed impression written
            // (the acknowledged, and any the killed process wrote before its answer was lost), none went below 0.
            const { rows: after } = await client.query<{ id: number; impressions: number; billed: number }>(
              `select c.id, c.remaining_impressions as impressions,
                (select count(*)::int from ad_impressions i where i.campaign_id = c.id and i.invalid_reason is null)
                  as billed
              from campaigns c`,
            );
            for (const campaign of after) {
              const was = before.get(campaign.id)!;
              if (was.isCpc) continue;
              expect({ campaign: campaign.id, spent: was.impressions - campaign.impressions }).toEqual({
                campaign: campaign.id,
                spent: campaign.billed - was.billed,
              });
            }
            expect(await campaignsBelowZero(client)).toBe(0);

            // The daily revenue ledger ran once across the processes (the replacement found it done), and posted no
            // day twice for a publisher.
            const { rows: jobs } = await client.query<{ runs: number; outcome: string | null }>(
              'select runs::int as runs, outcome from scheduled_jobs where name = $1',
              [DAILY_LEDGER_JOB],
            );
            expect(jobs).toEqual([{ runs: 1, outcome: 'ok' }]);
            const { rows: postedTwice } = await client.query(
              `select account_id, day from ledger_entries where account_type = 'publisher' and kind = 'revenue'
              group by account_id, day having count(*) > 1`,
            );
            expect(postedTwice).toEqual([]);
          });

          // Both processes killed at once: the primary stays, starts two others, and the network serves again.
          const killedTogether = await childPids(started.pid);
          for (const pid of killedTogether) process.kill(pid, 'SIGKILL');
          const restarted = await eventually(
            () => childPids(started.pid),
            (pids) => pids.length === 2 && !pids.some((pid) => killedTogether.includes(pid)),
            15_000,
          );
          await eventually(
            async () => restarted.every(serving),
            (ready) => ready,
            45_000,
          );
          expect((await onItsOwnConnection(`${started.url}/healthz`)).status).toBe(200);
        } finally {
          await stopAll([product]);
        }
      });
    },
  );

  it(
    'two instances on two ports: an ad approved through one is served by the other within a second, with its media',
    { timeout: 90_000 },
    async () => {
      await withFreshDatabase(POSTGRES_URL!, async (databaseUrl) => {
        // No SESSION_SECRET: the instances share the one kept in the database.
        const [a, b] = await startInstances(2, { DATABASE_URL: databaseUrl, REDIS_URL: REDIS_URL! });
        try {
          let visitors = 0;
          const decideOnB = async () => {
            visitors += 1;
            const response = await fetch(`${b!.url}${decisionPath(`approved/${visitors}`)}`, {
              headers: visitorHeaders(`203.0.113.${1 + (visitors % 250)}`),
            });
            expect(response.status).toBe(200);
            return ((await response.json()) as { ads: Array<{ src: string }> }).ads;
          };

          // The admin opens an advertiser with a campaign of its own and credits it; every other campaign is
          // geotargeted to Japan, which no visitor here is in, so that the new campaign's ad is the only one to serve.
          const admin = await apiCaller(a!);
          await admin.signIn('admin@demo.test');
          const email = 'scaling-advertiser@demo.test';
          const created = await admin.post('/api/admin/create-account', {
            kind: 'advertiser',
            brand: 'Scaling Outdoor',
            email,
            name: 'Scaling Advertiser',
            locale: 'en',
            campaign: { isCpc: false, price: 2.5 },
          });
          expect(created.status).toBe(200);
          const campaignId = created.body.campaignId as number;
          const granted = await admin.post('/api/admin/grant-campaign-credits', {
            campaignId,
            kind: 'grant',
            quantity: 10_000,
          });
          expect(granted.status).toBe(200);
          const accounts = await admin.post('/api/admin/get-accounts', { search: '' });
          const others = (accounts.body.advertisers as Array<{ campaigns: Array<{ id: number }> }>)
            .flatMap((advertiser) => advertiser.campaigns.map((campaign) => campaign.id))
            .filter((id) => id !== campaignId);
          expect(others.length).toBeGreaterThan(0);
          for (const id of others) {
            const targeted = await admin.post('/api/admin/update-advertiser-campaign', {
              campaignId: id,
              geolocation: ['JP'],
            });
            expect(targeted.status).toBe(200);
          }
          // B hears of those changes: it serves no ad to the demo blog any more.
          await eventually(decideOnB, (ads) => ads.length === 0, 5_000);

          // The advertiser uploads an image through A, sets its link and submits it.
          const advertiser = await apiCaller(a!);
          await advertiser.signIn(email);
          const bytes = randomPng(300, 250);
          const uploaded = await advertiser.upload({ name: 'scaling.png', bytes, type: 'image/png' });
          expect(uploaded.status).toBe(200);
          const adId = uploaded.body.adId as number;
          expect(adId).toBeGreaterThan(0);
          const linked = await advertiser.post('/api/advertiser/update-or-delete-ad', {
            action: 'update',
            ad: { id: adId, link: 'https://scaling-outdoor.example/e2e' },
          });
          expect(linked.status).toBe(200);
          expect((await advertiser.post('/api/advertiser/request-to-validate-ad', { adId })).status).toBe(200);
          const { body: listed } = await advertiser.post('/api/advertiser/get-ads');
          const image = (listed.ads as Array<{ id: number; image: string | null }>).find((ad) => ad.id === adId)?.image;
          expect(image).toMatch(/\/media\/[0-9a-f]{64}\.png$/);
          const mediaPath = new URL(image!, a!.url).pathname;

          // The admin approves it and asks the demo blog's publisher, who accepts through the mailed link.
          expect((await admin.post('/api/admin/validate-ad-by-admins', { adId, isAccepted: true })).status).toBe(200);
          const mailsBefore = a!.smtp.messages.length;
          const requested = await admin.post('/api/admin/request-publishers-to-validate-ad-or-force-validation', {
            adId,
            publisherIds: [DEMO_BLOG_ID],
            acceptance: 3,
          });
          expect(requested.status).toBe(200);
          const mail = await a!.smtp.waitForMail('publisher@demo.test', mailsBefore);
          const hashId = /\/publisher-ad-validation\/([A-Za-z0-9]+)/.exec(mail.text)?.[1];
          expect(hashId).toBeDefined();
          // Awaiting the publisher's answer, the ad is not served yet.
          expect(await decideOnB()).toEqual([]);

          const publisherLink = await apiCaller(a!);
          const accepted = await publisherLink.post('/api/publisher/update-ad-validation', { hashId, acceptance: 1 });
          expect(accepted.status).toBe(200);
          const acceptedAt = Date.now();

          // B serves it to the demo blog within a second of A's answer, from its own index.
          let served: { src: string } | undefined;
          while (!served) {
            served = (await decideOnB()).find((ad) => new URL(ad.src).pathname === mediaPath);
            if (!served && Date.now() - acceptedAt > 1_000) break;
          }
          expect(served, 'B served the approved ad within 1 s').toBeDefined();
          expect(Date.now() - acceptedAt).toBeLessThanOrEqual(1_000);
          expect(new URL(served!.src).origin).toBe(b!.url);

          // And B serves its bytes, stored by A in the database.
          const media = await fetch(served!.src);
          expect(media.status).toBe(200);
          expect(media.headers.get('content-type')).toBe('image/png');
          expect(Buffer.from(await media.arrayBuffer()).equals(bytes)).toBe(true);
        } finally {
          await stopAll([a ?? null, b ?? null]);
        }
      });
    },
  );

  it(
    'simulated traffic spread over two instances: the views each acknowledged add up to the impressions counted',
    { timeout: 90_000 },
    async () => {
      await withFreshDatabase(POSTGRES_URL!, async (databaseUrl) => {
        const [a, b] = await startInstances(2, { DATABASE_URL: databaseUrl, REDIS_URL: REDIS_URL! });
        try {
          // Every day's impressions (a run across midnight counts on two days).
          const impressions = () =>
            withClient(databaseUrl, async (client) => {
              const { rows } = await client.query<{ daily: number; rows: number }>(
                `select (select coalesce(sum(impressions), 0)::int from daily_publisher_stats) as daily,
                  (select count(*)::int from ad_impressions where invalid_reason is null) as rows`,
              );
              return rows[0]!;
            });
          const before = await impressions();

          const simulate = (url: string, seed: number) =>
            run(
              process.execPath,
              [
                '--import',
                'tsx',
                'scripts/simulate/main.ts',
                ...['--url', url, '--pageviews', '150', '--bots', '0.1', '--seed', String(seed)],
                ...['--max-seconds', '45'],
              ],
              { cwd: ROOT, timeout: 75_000 },
            ).then(({ stdout }) => JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { views: number });
          const summaries = await Promise.all([simulate(a!.url, 21), simulate(b!.url, 22)]);
          for (const summary of summaries) expect(summary.views).toBeGreaterThan(10);
          const views = summaries[0]!.views + summaries[1]!.views;

          const after = await impressions();
          expect(after.daily - before.daily).toBe(views);
          expect(after.rows - before.rows).toBe(views);
          expect(await withClient(databaseUrl, campaignsBelowZero)).toBe(0);
        } finally {
          await stopAll([a ?? null, b ?? null]);
        }
      });
    },
  );
});
