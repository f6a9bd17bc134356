import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { IpRanges } from './ip-ranges.ts';

/*
 * Mail services' image proxies (issue 32). Gmail and Apple Mail load a newsletter's images for their readers from
 * the services' own addresses, one address and user agent for many readers. An open that says it is one is trusted
 * as such only from that provider's published address ranges (mail-proxy-ranges.txt, with its sources and dates);
 * the user agent alone is forged at will.
 */

export type MailProxyProvider = 'google' | 'apple' | 'yahoo';

/**
 * The user agents of the proxies, whole as they send them: Gmail's ends with its proxy's name, Yahoo's starts with
 * it, Apple's is `Mozilla/5.0` alone. A user agent that only contains one of the names is no proxy's.
 */
const PROXY_USER_AGENTS: ReadonlyArray<[MailProxyProvider, RegExp]> = [
  ['google', /\(via ggpht\.com GoogleImageProxy\)$/],
  ['yahoo', /^YahooMailProxy; /],
  ['apple', /^Mozilla\/5\.0$/],
];

/** The provider whose proxy a user agent names, or null. */
export function mailProxyNamed(userAgent: string): MailProxyProvider | null {
  return PROXY_USER_AGENTS.find(([, pattern]) => pattern.test(userAgent))?.[0] ?? null;
}

const PROVIDERS = new Set<string>(PROXY_USER_AGENTS.map(([provider]) => provider));

/** The file kept in the repository (`npm run mail-proxy-ranges` rewrites it from the providers' lists). */
export const MAIL_PROXY_RANGES_FILE = fileURLToPath(new URL('./mail-proxy-ranges.txt', import.meta.url));

/** Each provider's published address ranges; a provider without any is never trusted (Yahoo publishes none). */
export class MailProxyRanges {
  private constructor(private readonly ranges: ReadonlyMap<MailProxyProvider, IpRanges>) {}

  static readonly EMPTY = new MailProxyRanges(new Map());

  /**
   * Parses `[provider]` sections of ranges (IpRanges' format: CIDR or single addresses, `#` comments). A range
   * before any section, or an unknown provider, throws naming the line.
   */
  static parse(text: string, source = 'mail proxy ranges'): MailProxyRanges {
    const lines = text.split(/\r?\n/);
    const sectionOfLine: Array<MailProxyProvider | null> = [];
    let section: MailProxyProvider | null = null;
    lines.forEach((line, index) => {
      const content = line.replace(/#.*/, '').trim();
      const header = /^\[(.+)\]$/.exec(content);
      if (header) {
        if (!PROVIDERS.has(header[1]!)) throw new Error(`${source}, line ${index + 1}: unknown provider ${content}`);
        section = header[1] as MailProxyProvider;
        sectionOfLine.push(null);
        return;
      }
      if (content !== '' && section === null) {
        throw new Error(`${source}, line ${index + 1}: a range before any [provider] section`);
      }
      sectionOfLine.push(section);
    });
    const ranges = new Map<MailProxyProvider, IpRanges>();
    for (const provider of new Set(sectionOfLine)) {
      if (provider === null) continue;
      // The other lines blanked, so that a parse error names the line of the file.
      const own = lines.map((line, index) => (sectionOfLine[index] === provider ? line : '')).join('\n');
      ranges.set(provider, IpRanges.parse(own, `${source} [${provider}]`));
    }
    return new MailProxyRanges(ranges);
  }

  static load(path: string): MailProxyRanges {
    return MailProxyRanges.parse(readFileSync(path, 'utf8'), path);
  }

  private static publishedRanges: MailProxyRanges | null = null;

  /** The ranges of the repository's file, read once per process. */
  static published(): MailProxyRanges {
    MailProxyRanges.publishedRanges ??= MailProxyRanges.load(MAIL_PROXY_RANGES_FILE);
    return MailProxyRanges.publishedRanges;
  }

  /** The providers with ranges, and how many merged intervals each holds. */
  get sizes(): Partial<Record<MailProxyProvider, { v4: number; v6: number }>> {
    return Object.fromEntries([...this.ranges].map(([provider, ranges]) => [provider, ranges.size]));
  }

  /** Whether a request is a mail proxy's: its user agent names a provider and its address is in that provider's ranges. */
  isMailProxy(ip: string, userAgent: string): boolean {
    const provider = mailProxyNamed(userAgent);
    return provider !== null && (this.ranges.get(provider)?.has(ip) ?? false);
  }
}
