/**
 * npm run simulate -- --url <product URL> --pageviews <N> [--bots <share>] [--concurrency <n>]
 *   [--publishers <id:host[:weight],...>] [--seed <n>] [--max-seconds <s>]
 *   [--newsletter <owlHtmlBanner image address or snippet> [--opens <N, 500>] [--issues <n, 3>]]
 *
 * Drives realistic traffic through the real public endpoints of a product running on this machine and
 * prints, on its last line, a JSON summary of what the server acknowledged.
 */
import { parseArgs } from 'node:util';
import {
  clockSeed,
  DEMO_PUBLISHERS,
  isLoopbackUrl,
  MAX_CONCURRENCY,
  MAX_PAGEVIEWS,
  newsletterBannerPaths,
  simulate,
  type NewsletterTraffic,
  type SimulatedPublisher,
} from './simulator.ts';

function fail(message: string): never {
  console.error(`simulate: ${message}`);
  process.exit(2);
}

function parsePublishers(value: string | undefined): SimulatedPublisher[] {
  if (!value) return DEMO_PUBLISHERS;
  return value.split(',').map((part) => {
    const [id, host, weight] = part.split(':');
    const publisher = { id: Number(id), host: host || 'localhost', weight: weight === undefined ? 1 : Number(weight) };
    if (!Number.isInteger(publisher.id) || publisher.id <= 0 || !(publisher.weight > 0)) {
      fail(`bad --publishers entry "${part}" (id:host[:weight])`);
    }
    return publisher;
  });
}

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    pageviews: { type: 'string' },
    bots: { type: 'string' },
    concurrency: { type: 'string' },
    publishers: { type: 'string' },
    seed: { type: 'string' },
    'max-seconds': { type: 'string' },
    newsletter: { type: 'string' },
    opens: { type: 'string' },
    issues: { type: 'string' },
  },
});

const url = values.url ?? fail('--url <product URL> is required (for example http://localhost:3000)');
if (!isLoopbackUrl(url)) fail('--url must be on this machine (localhost, 127.0.0.1 or ::1)');
const pageviews = Number(values.pageviews ?? fail('--pageviews <N> is required'));
if (!Number.isInteger(pageviews) || pageviews < 1 || pageviews > MAX_PAGEVIEWS) {
  fail(`--pageviews must be an integer from 1 to ${MAX_PAGEVIEWS}`);
}
const bots = Number(values.bots ?? '0.03');
if (!(bots >= 0 && bots <= 1)) fail('--bots must be a share from 0 to 1');
const concurrency = Number(values.concurrency ?? '8');
if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
  fail(`--concurrency must be an integer from 1 to ${MAX_CONCURRENCY}`);
}
const maxSeconds = Number(values['max-seconds'] ?? '600');
if (!(maxSeconds > 0 && maxSeconds <= 3600)) fail('--max-seconds must be from 1 to 3600');
const seed = values.seed === undefined ? clockSeed() : Number(values.seed);
if (!Number.isInteger(seed)) fail('--seed must be an integer');

const publishers = parsePublishers(values.publishers);
let newsletter: NewsletterTraffic | undefined;
if (values.newsletter !== undefined || values.opens !== undefined) {
  const banner = values.newsletter ?? fail('--opens needs --newsletter <banner image address or snippet>');
  if (!newsletterBannerPaths(banner))
    fail('--newsletter must be the image address of owlHtmlBanner1 or 2, or the snippet');
  const opens = Number(values.opens ?? '500');
  if (!Number.isInteger(opens) || opens < 1 || opens > MAX_PAGEVIEWS)
    fail(`--opens must be an integer from 1 to ${MAX_PAGEVIEWS}`);
  const issues = Number(values.issues ?? '3');
  if (!Number.isInteger(issues) || issues < 1 || issues > 100) fail('--issues must be an integer from 1 to 100');
  newsletter = { banner, opens, issues };
}
console.log(
  `simulating ${pageviews} pageviews against ${url} (bots ${bots}, concurrency ${concurrency}, seed ${seed}, publishers ${publishers.map((p) => p.id).join(',')})`,
);
const startedAt = Date.now();
const { summary, errors } = await simulate({
  url,
  pageviews,
  bots,
  concurrency,
  maxSeconds,
  seed,
  publishers,
  newsletter,
  log: (line) => console.log(line),
});
console.log(`done in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
console.log(JSON.stringify(summary));
// Nothing answered at all: the product is not running at that address.
if (errors > 0 && summary.pageviews + summary.invalid.pageviews === 0) process.exitCode = 1;
