import { heartbeatHost, isOnRegisteredDomain } from './addresses.ts';

/*
 * Invalid-traffic rules that hold against one address changing its user agent (issue 21): distinct visitors per
 * address per publisher, browser evidence of decisions and views, and the publisher's registered domain. The
 * engine keeps the counts (apps/api/src/features/delivery/traffic-filter.ts); these are the rules and thresholds.
 */

/**
 * Distinct visitors (a visitor is a hash of the address and the user agent, salted per day) one address may show
 * on one publisher's pages in a UTC minute: beyond it, the address is a program changing its user agent. Browsers
 * of one kind send one user agent (Chrome, Edge and Safari freeze the operating system's version in it and Chrome
 * the build number: every Windows Chrome 126 says the same thing), so an office behind one address, whose
 * browsers are a few makes and versions, is a handful of visitors, and a mobile carrier's shared address, behind
 * which few of its subscribers open the same site in the same minute, a few more. Twenty different browsers on
 * one site within sixty seconds from one address are not people.
 */
export const VISITORS_PER_IP_PER_MINUTE = 20;

/**
 * Distinct visitors one address may show on one publisher's pages in a UTC hour: the same reasoning over an hour,
 * with room for a carrier's busy address on a popular site (in-app browsers, whose user agents name the phone's
 * model, make more visitors of the same people); a program paced under the minute's limit reaches it in five.
 */
export const VISITORS_PER_IP_PER_HOUR = 100;

/** Why a pageview or a view lacks what a browser showing the publisher's page sends. */
export type EvidenceFault = 'noEvidence' | 'otherDomain';

/** What a serving request says about the page it comes from: its `Origin` and `Referer` headers, as sent ('' if absent). */
export interface PageHeaders {
  origin: string;
  referer: string;
}

/** The host of an Origin, a Referer or a page address; '' when there is none or it is not a host name. */
export function pageHost(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  try {
    return heartbeatHost(new URL(value).hostname);
  } catch {
    return '';
  }
}

/** The hosts a decision request names (pageHost of its Origin, its Referer and the page address the script reports). */
export interface PageHosts {
  origin: string;
  referer: string;
  page: string;
}

/**
 * Browser evidence of a decision request (`GET /serve/d`): the publisher script asks from the page with `fetch`,
 * which a browser sends with the page's `Origin` (a cross-origin request always has it) or, asked from the ad
 * server's own origin, with the page as `Referer`. No such header is no browser showing a page ('noEvidence'); a
 * page whose host is not the publisher's registered domain (the domain or a subdomain, `www.` ignored), by those
 * headers or by the page address the script reports, counts nothing either ('otherDomain'): a copy of the line on
 * another site, a scraper's copy of the page, a translation proxy. A program can send any header: this holds
 * against a browser on another site, and sets aside programs that do not bother; the per-address rules hold
 * against the others. Takes the hosts (pageHost), which the serving route reads once for the heartbeat too.
 */
export function decisionEvidenceFault(
  hosts: PageHosts,
  registeredDomain: string | null | undefined,
): EvidenceFault | null {
  const host = hosts.origin || hosts.referer;
  if (!host) return 'noEvidence';
  if (!isOnRegisteredDomain(host, registeredDomain)) return 'otherDomain';
  return hosts.page && !isOnRegisteredDomain(hosts.page, registeredDomain) ? 'otherDomain' : null;
}

/**
 * Browser evidence of a view beacon (`POST /serve/v`, sent by `navigator.sendBeacon`): a browser sends it with the
 * page's `Origin` (and its origin as `Referer`), which must be on the publisher's registered domain. A page whose
 * referrer policy is `no-referrer` makes the browser send `Origin: null` and no Referer: taken as a browser's, since
 * the decision the view counts against was judged on the page's real origin (its `fetch` always sends it).
 */
export function viewEvidenceFault(
  headers: PageHeaders,
  registeredDomain: string | null | undefined,
): EvidenceFault | null {
  const host = pageHost(headers.origin) || pageHost(headers.referer);
  if (host) return isOnRegisteredDomain(host, registeredDomain) ? null : 'otherDomain';
  return headers.origin.trim() === 'null' ? null : 'noEvidence';
}

/** Whether an address's distinct visitors on one publisher in the current minute and hour are beyond the rule. */
export function tooManyVisitorsFromOneIp(
  visitors: { minute: number; hour: number },
  limits: { perMinute: number; perHour: number } = {
    perMinute: VISITORS_PER_IP_PER_MINUTE,
    perHour: VISITORS_PER_IP_PER_HOUR,
  },
): boolean {
  return visitors.minute > limits.perMinute || visitors.hour > limits.perHour;
}
