/**
 * The publisher's registered domain (decisions.md, installation): the domain itself or one of its
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

/**
 * A page's address as the publisher script reports it, kept for the URL statistics and the advertisers'
 * "see it live" link: an http or https address without its fragment, cut at `maxLength` characters. Anything
 * else (javascript:, data:, not an address) is no address: ''.
 */
export function pageAddress(value: unknown, maxLength = 500): string {
  if (typeof value !== 'string' || value === '' || !httpUrl(value)) return '';
  return (value.split('#')[0] ?? '').slice(0, maxLength);
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
