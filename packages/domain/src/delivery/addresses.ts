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

/**
 * A page's address as the publisher script reports it, kept for the URL statistics and the advertisers'
 * "see it live" link: an http or https address without its fragment, cut at `maxLength` characters. Anything
 * else (javascript:, data:, not an address) is no address: ''.
 */
export function pageAddress(value: unknown, maxLength = 500): string {
  if (typeof value !== 'string' || value === '') return '';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
  return (value.split('#')[0] ?? '').slice(0, maxLength);
}
