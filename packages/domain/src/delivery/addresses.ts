/**
 * The publisher's registered domain (docs/decisions.md section 4): the domain itself or one of its
 * subdomains, `www.` ignored on both sides, case-insensitive. No registered domain matches nothing.
 */
export function isOnRegisteredDomain(host: string, domain: string | null | undefined): boolean {
  const registered =
    domain
      ?.trim()
      .toLowerCase()
      .replace(/^www\./, '') ?? '';
  const clean = host
    .trim()
    .toLowerCase()
    .replace(/^www\./, '');
  return registered !== '' && (clean === registered || clean.endsWith(`.${registered}`));
}

/** An absolute http or https address, parsed; null for anything else (javascript:, data:, ftp:, not an address). */
export function httpUrl(value: string): URL | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
}

/** The text without C0 control characters and DEL (a NUL byte, line breaks, escapes). */
export function withoutControlCharacters(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, '');
}

/**
 * A request's host name as the install heartbeat keeps it: lower case letters, digits, dots and hyphens (a
 * punycoded name), or an IP address, at most 253 characters; anything else is no host ('').
 */
export function heartbeatHost(hostname: string): string {
  const host = hostname.toLowerCase();
  if (host.length === 0 || host.length > 253) return '';
  return /^([a-z0-9-]+\.)*[a-z0-9-]+\.?$/.test(host) || /^\[[0-9a-f:.]+\]$/.test(host) ? host : '';
}

/** Query parameters of ad clicks and campaigns: each visitor's own, not the page's. */
const TRACKING_PARAMETER =
  /^(utm_\w+|fbclid|gclid|gbraid|wbraid|dclid|msclkid|yclid|twclid|ttclid|igshid|mc_[ce]id|_ga|_gl)$/i;
/** Query parameters that may carry a secret or who the visitor is (a reset link's token, an e-mail address). */
const PRIVATE_PARAMETER =
  /token|secret|passw|session|e-?mail|^(auth|oauth|sid|uid|user|login|key|apikey|api_key|code|otp|pwd|pin|sig|signature|hash)$|^auth_|_auth$/i;

/**
 * A page's address as the publisher script reports it, kept for the URL statistics and the advertisers'
 * "see it live" link: an http or https address without its fragment, cut at `maxLength` characters. Anything
 * else (javascript:, data:, not an address) is no address: ''. Query parameters that are a visitor's own
 * (campaign trackers) or may hold a secret or a person's e-mail are left out: the address is kept for months and
 * shown to advertisers, and one page is then one address whatever campaign brought each visitor.
 */
export function pageAddress(raw: unknown, maxLength = 500): string {
  if (typeof raw !== 'string' || raw === '') return '';
  // Control characters (a NUL, which PostgreSQL refuses in text) are no part of an address a browser sends.
  const value = withoutControlCharacters(raw);
  const url = httpUrl(value);
  if (!url) return '';
  const address = value.split('#')[0] ?? '';
  if (url.search === '') return address.slice(0, maxLength);
  // Each parameter judged on its decoded name and value, the ones kept left as they were written: one page, one
  // address, whether a tracker came with it or not.
  const parameters = url.search.slice(1).split('&');
  const kept = parameters.filter((parameter) => {
    const [name = '', text = ''] = new URLSearchParams(parameter).entries().next().value ?? [];
    return !TRACKING_PARAMETER.test(name) && !PRIVATE_PARAMETER.test(name) && !text.includes('@');
  });
  if (kept.length === parameters.length) return address.slice(0, maxLength);
  url.hash = '';
  url.search = '';
  return (kept.length > 0 ? `${url.href}?${kept.join('&')}` : url.href).slice(0, maxLength);
}

/**
 * The network a visitor's address stands for, for visitor hashes and per-address limits: an IPv4 address
 * itself (also written IPv4-mapped, `::ffff:a.b.c.d`), and for IPv6 its /64, which one home or one server holds
 * whole: counting each of its 2^64 addresses apart would let anyone be a new visitor, and a new address, at
 * every request (privacy addresses change on their own, too).
 */
export function addressNetwork(ip: string): string {
  const address = ip.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const groups = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const [head = '', tail = ''] = address.split('::');
  const before = groups(head);
  const after = groups(tail);
  // `::` stands for the zero groups between (none when the address has all eight).
  const hextets = [...before, ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0'), ...after];
  return `${hextets
    .slice(0, 4)
    .map((group) => (parseInt(group, 16) || 0).toString(16))
    .join(':')}::/64`;
}

/**
 * Where a click redirects: the ad's registered link (http or https only, else null) with the click id added as
 * `hclid`, for the advertiser's conversion pixel or postback. The link's own query is kept as written (an
 * affiliate or signed link may depend on its exact encoding); a link that already carries an `hclid` gets ours.
 */
export function linkWithClickId(link: string, clickId: string): string | null {
  const url = httpUrl(link);
  if (!url) return null;
  if (url.searchParams.has('hclid')) url.searchParams.set('hclid', clickId);
  else url.search = `${url.search ? `${url.search}&` : '?'}hclid=${encodeURIComponent(clickId)}`;
  return url.toString();
}
