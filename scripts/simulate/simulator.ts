import {
  DEFAULT_TRAFFIC_MODEL,
  MIN_VIEW_MS,
  drawBot,
  drawClick,
  drawDevice,
  drawLead,
  drawView,
  mixSeed,
  seededRandom,
  type Device,
  type Random,
  type TrafficModel,
} from '@helium/domain';
import type { DecisionAnswer, ServedAd } from '@helium/contracts/serving';

/*
 * The traffic simulator: realistic visits through the real public endpoints, with the same requests the
 * publisher script and a browser make (apps/publisher-script/src/helium.ts): GET /serve/d for the pageview
 * and the ads, POST /serve/v (text/plain, as sendBeacon) for each ad that stays in view, GET /c/<token> for
 * a click (the redirect to the ad's link with its hclid), then the advertiser's lead pixel (GET /serve/l)
 * or server postback (POST /serve/lead). Each visitor comes through a "reverse proxy": X-Forwarded-For
 * carries a public-looking IP, which the server trusts from loopback (TRUST_PROXY). What it counts is what
 * the server answered (x-helium-counted, the redirect, the postback's status), never what it sent.
 */

export interface SimulatedPublisher {
  /** The publisher id the snippet carries (data-publisher). */
  id: number;
  /** The host of the publisher's site (the page's origin). */
  host: string;
  /** Relative share of the traffic. */
  weight: number;
}

/** The demo seed's web publishers on a fresh install: Demo Blog, Cuisine Facile, Rando Alpes. */
export const DEMO_PUBLISHERS: SimulatedPublisher[] = [
  { id: 1, host: 'localhost', weight: 5 },
  { id: 3, host: 'cuisine-facile.example', weight: 3 },
  { id: 4, host: 'rando-alpes.example', weight: 2 },
];

export interface SimulationOptions {
  url: string;
  pageviews: number;
  /** Share of pageviews made by known bots (and of served ads a bot also touches). */
  bots: number;
  publishers: SimulatedPublisher[];
  concurrency: number;
  /** Stop starting visits after this long. */
  maxSeconds: number;
  seed: number;
  model?: TrafficModel;
  /** Newsletter readers opening a newsletter publisher's banner (after the web traffic). */
  newsletter?: NewsletterTraffic;
  /** Progress lines (never the summary). */
  log?: (line: string) => void;
}

export interface NewsletterTraffic {
  /** The banner's image address from owlHtmlBanner1 or 2, or the whole snippet (its `src` is taken). */
  banner: string;
  /** Opens of the banner, spread over the issues, by a pool of readers (some open an issue twice). */
  opens: number;
  /** Issues sent (each has its own ad, chosen at its first open). */
  issues: number;
}

export interface SimulationSummary {
  pageviews: number;
  views: number;
  /** Billed (unique) clicks on web ads. */
  clicks: number;
  leads: number;
  invalid: { pageviews: number; views: number; clicks: number; opens: number };
  /** Newsletter banners: opens counted as impressions, billed clicks. */
  newsletter: { opens: number; clicks: number };
}

/**
 * The image and click paths of a newsletter banner for one issue, from the snippet's image address (or the
 * snippet itself), whose issue segment is a merge tag such as `*|CAMPAIGN_UID|*`; null when it is not a
 * banner address of this product.
 */
export function newsletterBannerPaths(banner: string): ((issue: string) => { image: string; click: string }) | null {
  const src = /src="([^"]+)"/.exec(banner)?.[1] ?? banner.trim();
  let path: string;
  try {
    path = new URL(src).pathname;
  } catch {
    return null;
  }
  const match = /^\/serve\/owl\/([^/]+)\/([12])\/[^/]+\/image$/.exec(path);
  if (!match) return null;
  const [, publisher, index] = match;
  return (issue) => {
    const base = `/serve/owl/${publisher}/${index}/${encodeURIComponent(issue)}`;
    return { image: `${base}/image`, click: `${base}/click` };
  };
}

export const MAX_PAGEVIEWS = 200_000;
export const MAX_CONCURRENCY = 64;
const REQUEST_TIMEOUT_MS = 10_000;

const DESKTOP_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36',
];
const MOBILE_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
];
/** Known bots (all recognised by the server's bot filter). */
export const BOT_AGENTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
];
const DESKTOP_WIDTHS = [1280, 1366, 1440, 1536, 1920, 2560];
const MOBILE_WIDTHS = [360, 375, 390, 393, 412, 414];
const LANGUAGES = ['fr-FR,fr;q=0.9,en;q=0.8', 'en-US,en;q=0.9', 'fr-FR,fr;q=0.9', 'en-GB,en;q=0.9,fr;q=0.7'];
const PATHS = [
  '/',
  '/blog/hiking-gear',
  '/blog/winter-camping',
  '/guides/alpes',
  '/guides/gr20',
  '/recettes/tarte-aux-pommes',
  '/recettes/gratin-dauphinois',
  '/actualites',
  '/a-propos',
];

/** Only loopback: the simulator never loads anything but a product running on this machine. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const { hostname, protocol } = new URL(url);
    if (protocol !== 'http:' && protocol !== 'https:') return false;
    return ['localhost', '127.0.0.1', '[::1]', '::1'].includes(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  } catch {
    return false;
  }
}

function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** A public-looking IPv4 address (no private, loopback, link-local, multicast or documentation range). */
export function publicIp(random: Random): string {
  for (;;) {
    const a = 1 + Math.floor(random() * 223);
    const b = Math.floor(random() * 256);
    if (a === 10 || a === 127 || a === 0 || (a === 100 && b >= 64 && b < 128)) continue;
    if ((a === 172 && b >= 16 && b < 32) || (a === 192 && b === 168) || (a === 169 && b === 254)) continue;
    if ((a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19 || b === 51)) || (a === 203 && b === 0)) continue;
    return `${a}.${b}.${Math.floor(random() * 256)}.${1 + Math.floor(random() * 254)}`;
  }
}

interface Visitor {
  ip: string;
  userAgent: string;
  device: Device;
  width: number;
  language: string;
  isBot: boolean;
  /**
   * A program that changes its user agent at each pageview from one address, without the Origin or Referer a
   * browser's page sends (issue 21's attack): none of its pageviews counts, so it is served no ad.
   */
  rotates?: boolean;
}

/** A Chrome-like user agent with another build number each time, as a program changing its user agent makes. */
function rotatingAgent(random: Random): string {
  const major = 110 + Math.floor(random() * 20);
  return `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.${Math.floor(random() * 6_000)}.${Math.floor(random() * 200)} Safari/537.36`;
}

/** A stable number for an ad from what the decision answers: its id in a placeholder creative, else its media. */
export function adKey(src: string): number {
  const id = /\/serve\/creative\/(\d+)\.svg$/.exec(src)?.[1];
  if (id) return Number(id);
  let hash = 0;
  for (let index = 0; index < src.length; index++) hash = (Math.imul(hash, 31) + src.charCodeAt(index)) | 0;
  return (hash >>> 0) + 1_000_000;
}

export async function simulate(options: SimulationOptions): Promise<{ summary: SimulationSummary; errors: number }> {
  if (!isLoopbackUrl(options.url)) throw new Error('The simulator only drives a product on this machine (loopback)');
  const base = options.url.replace(/\/+$/, '');
  const model = options.model ?? DEFAULT_TRAFFIC_MODEL;
  const random = seededRandom(options.seed);
  const summary: SimulationSummary = {
    pageviews: 0,
    views: 0,
    clicks: 0,
    leads: 0,
    invalid: { pageviews: 0, views: 0, clicks: 0, opens: 0 },
    newsletter: { opens: 0, clicks: 0 },
  };
  let errors = 0;
  const totalWeight = options.publishers.reduce((sum, publisher) => sum + publisher.weight, 0);
  const choosePublisher = () => {
    let point = random() * totalWeight;
    for (const publisher of options.publishers) {
      if (point < publisher.weight) return publisher;
      point -= publisher.weight;
    }
    return options.publishers[options.publishers.length - 1] as SimulatedPublisher;
  };

  // Returning visitors: about 2.5 pageviews per visitor, drawn from a pool of people.
  const pool: Visitor[] = [];
  const poolSize = Math.max(1, Math.ceil(options.pageviews / 2.5));
  const botVisitor = (): Visitor => ({
    ip: publicIp(random),
    userAgent: pick(random, BOT_AGENTS),
    device: 'desktop',
    width: 1280,
    language: 'en-US',
    isBot: true,
  });
  // One address of the run's user-agent-rotating program.
  const rotatorIp = publicIp(random);
  /** A bot's pageview: a known bot, or (one in three) the program changing its user agent at each pageview. */
  const webBot = (): Visitor =>
    random() < 1 / 3
      ? { ...botVisitor(), ip: rotatorIp, userAgent: rotatingAgent(random), rotates: true }
      : botVisitor();
  /**
   * Someone from a pool of people (a site's returning visitors, a newsletter's readers): a known bot at the
   * bots' share, else, with the `returning` share or once the pool is full, someone already in it, else a
   * new person added to it.
   */
  const personFrom = (people: Visitor[], size: number, returning: number, bot: () => Visitor = botVisitor): Visitor => {
    if (drawBot(random, options.bots)) return bot();
    if (people.length >= size || (people.length > 0 && random() < returning)) return pick(random, people);
    const device = drawDevice(random, model);
    const person: Visitor = {
      ip: publicIp(random),
      userAgent: pick(random, device === 'mobile' ? MOBILE_AGENTS : DESKTOP_AGENTS),
      device,
      width: pick(random, device === 'mobile' ? MOBILE_WIDTHS : DESKTOP_WIDTHS),
      language: pick(random, LANGUAGES),
      isBot: false,
    };
    people.push(person);
    return person;
  };
  const visitorFor = () => personFrom(pool, poolSize, 0.4, webBot);

  const request = async (path: string, visitor: Visitor, init: RequestInit & { headers?: Record<string, string> }) => {
    try {
      return await fetch(`${base}${path}`, {
        ...init,
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        headers: {
          'user-agent': visitor.userAgent,
          'accept-language': visitor.language,
          'x-forwarded-for': visitor.ip,
          'x-forwarded-proto': 'https',
          ...init.headers,
        },
      });
    } catch {
      errors++;
      return null;
    }
  };
  const counted = (response: Response | null) => response?.headers.get('x-helium-counted') ?? '';

  /** A link-preview or prefetching bot touching a served ad's view beacon or click link. */
  const botTouch = async (ad: ServedAd, origin: string) => {
    const bot = botVisitor();
    if (random() < 0.5) {
      const response = await request('/serve/v', bot, {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin },
        body: ad.view,
      });
      if (counted(response) === 'invalid') summary.invalid.views++;
    } else {
      const response = await request(new URL(ad.click).pathname, bot, { headers: { accept: 'text/html' } });
      await response?.arrayBuffer().catch(() => {});
      if (counted(response) === 'invalid') summary.invalid.clicks++;
    }
  };

  const lead = async (location: string, visitor: Visitor, random: Random) => {
    const clickId = new URL(location).searchParams.get('hclid') ?? '';
    if (random() < 0.5) {
      // The advertiser's confirmation page loads the pixel in the visitor's browser.
      const response = await request(`/serve/l?hclid=${encodeURIComponent(clickId)}`, visitor, {
        headers: { accept: 'image/avif,image/webp,image/*,*/*;q=0.8', referer: `${new URL(location).origin}/` },
      });
      await response?.arrayBuffer().catch(() => {});
      if (counted(response) === 'counted') summary.leads++;
    } else {
      // The advertiser's server posts back from its own address.
      const server: Visitor = { ...visitor, userAgent: 'advertiser-crm/1.0 (postback)', ip: publicIp(random) };
      const response = await request('/serve/lead', server, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hclid: clickId }),
      });
      const answer = (await response?.json().catch(() => null)) as { status?: string } | null;
      if (answer?.status === 'ok') summary.leads++;
    }
  };

  const visit = async () => {
    const publisher = choosePublisher();
    const visitor = visitorFor();
    const origin = publisher.host === 'localhost' ? 'http://localhost' : `https://${publisher.host}`;
    const page = `${origin}${pick(random, PATHS)}`;
    // The script's fetch from the publisher's page: CORS, no credentials, Origin and the page as referrer (the
    // rotating program sends neither).
    const response = await request(
      `/serve/d?p=${encodeURIComponent(String(publisher.id))}&w=${visitor.width}&u=${encodeURIComponent(page)}`,
      visitor,
      { headers: visitor.rotates ? { accept: '*/*' } : { accept: '*/*', origin, referer: `${origin}/` } },
    );
    if (!response) return;
    const answer = (await response.json().catch(() => null)) as Partial<DecisionAnswer> | null;
    if (!response.ok || !answer) {
      errors++;
      return;
    }
    const outcome = counted(response);
    if (outcome === 'counted') summary.pageviews++;
    else if (outcome === 'invalid') summary.invalid.pageviews++;
    const answeredAt = Date.now();
    for (const ad of answer.ads ?? []) {
      if (random() < options.bots / 2) await botTouch(ad, origin);
      if (!drawView(random, visitor.device, model)) continue;
      // What follows the view comes a second later or more, while the next visits go on: its own random
      // stream, drawn now, keeps a run with --seed the same whatever the timing.
      const later = seededRandom(Math.floor(random() * 2 ** 31));
      const work = afterView(ad, visitor, origin, answeredAt, later);
      viewsPending.add(work);
      void work.finally(() => viewsPending.delete(work));
    }
  };

  /**
   * A view once the ad has been in view long enough (the script's second, two for a video: an earlier beacon is
   * set aside as invalid), then maybe a click, a click again and a lead.
   */
  const viewsPending = new Set<Promise<void>>();
  const afterView = async (ad: ServedAd, visitor: Visitor, origin: string, answeredAt: number, random: Random) => {
    const due = answeredAt + MIN_VIEW_MS[ad.kind] + 50;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    const view = await request('/serve/v', visitor, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8', origin, referer: `${origin}/` },
      body: ad.view,
    });
    const viewed = counted(view);
    if (viewed === 'counted') summary.views++;
    else if (viewed === 'invalid') summary.invalid.views++;
    if (viewed !== 'counted' || !drawClick(random, adKey(ad.src), visitor.device, model)) return;
    // A click opens the ad's link in a new tab: a navigation, so no Origin, the page's origin as referrer.
    const clickPath = new URL(ad.click).pathname;
    const click = await request(clickPath, visitor, { headers: { accept: 'text/html', referer: `${origin}/` } });
    await click?.arrayBuffer().catch(() => {});
    const clicked = counted(click);
    if (clicked === 'invalid') summary.invalid.clicks++;
    if (click?.status !== 302 || clicked !== 'unique') return;
    summary.clicks++;
    const location = click.headers.get('location') ?? '';
    if (random() < model.repeatClickRate) {
      // Clicked again within the hour: redirected, not billed (the summary says what the server answered).
      const again = await request(clickPath, visitor, { headers: { accept: 'text/html', referer: `${origin}/` } });
      await again?.arrayBuffer().catch(() => {});
      const againCounted = counted(again);
      if (again?.status === 302 && againCounted === 'unique') summary.clicks++;
      else if (againCounted === 'invalid') summary.invalid.clicks++;
    }
    if (location && drawLead(random, model)) await lead(location, visitor, random);
  };

  // Newsletter readers: a pool of subscribers (about 1.5 opens each over the issues), mail scanners as bots.
  const newsletterPaths = options.newsletter ? newsletterBannerPaths(options.newsletter.banner) : null;
  if (options.newsletter && !newsletterPaths) throw new Error('Not a newsletter banner address of this product');
  const readers: Visitor[] = [];
  const readerPoolSize = Math.max(1, Math.ceil((options.newsletter?.opens ?? 0) / 1.5));
  const open = async () => {
    if (!options.newsletter || !newsletterPaths) return;
    const issue = `sim-${options.seed}-${1 + Math.floor(random() * Math.max(1, options.newsletter.issues))}`;
    const paths = newsletterPaths(issue);
    const reader = personFrom(readers, readerPoolSize, 0.3);
    // The mail client loads the banner's image: the server chooses the issue's ad and redirects to it.
    const image = await request(paths.image, reader, {
      headers: { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' },
    });
    await image?.arrayBuffer().catch(() => {});
    const opened = counted(image);
    if (opened === 'invalid') summary.invalid.opens++;
    if (opened !== 'counted') return;
    summary.newsletter.opens++;
    const location = image?.headers.get('location') ?? '';
    if (!drawClick(random, adKey(location), reader.device, model)) return;
    const click = await request(paths.click, reader, { headers: { accept: 'text/html' } });
    await click?.arrayBuffer().catch(() => {});
    if (click?.status === 302 && counted(click) === 'unique') summary.newsletter.clicks++;
  };

  const deadline = Date.now() + options.maxSeconds * 1000;
  const workers = Math.max(1, Math.min(options.concurrency, MAX_CONCURRENCY));
  /** Runs `total` tasks on the workers until done or the deadline; answers how many were started. */
  const runAll = async (total: number, task: () => Promise<void>, label: string) => {
    let started = 0;
    let finished = 0;
    const progressEvery = Math.max(100, Math.ceil(total / 10));
    const worker = async () => {
      while (started < total && Date.now() < deadline) {
        started++;
        await task();
        finished++;
        if (finished % progressEvery === 0) options.log?.(`${finished}/${total} ${label}`);
      }
    };
    await Promise.all(Array.from({ length: workers }, worker));
    if (started < total) options.log?.(`stopped after ${options.maxSeconds} s: ${started} ${label} sent`);
  };
  await runAll(options.pageviews, visit, 'pageviews');
  while (viewsPending.size > 0) await Promise.all([...viewsPending]);
  if (options.newsletter) await runAll(options.newsletter.opens, open, 'newsletter opens');
  if (errors > 0) options.log?.(`${errors} requests failed (network or timeout)`);
  return { summary, errors };
}

/** A seed from the clock, so that two runs make different visitors unless --seed is given. */
export function clockSeed(): number {
  return mixSeed(Date.now() % 2 ** 31, process.pid);
}
