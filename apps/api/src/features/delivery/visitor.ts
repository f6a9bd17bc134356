import { createHmac } from 'node:crypto';
import { addressNetwork, DAY_MS, MINUTE_MS, startOfUtcDay, type Device } from '@helium/domain';

/** The UTC day of an instant, YYYY-MM-DD. */
let dayStartMs = 0;
let dayEndMs = 0;
let dayText = '';

export function utcDay(at: Date): string {
  const ms = at.getTime();
  // The last day computed, kept: most calls fall in it (a few per request).
  if (ms >= dayStartMs && ms < dayEndMs) return dayText;
  const text = at.toISOString().slice(0, 10);
  if (Number.isFinite(ms)) {
    dayStartMs = startOfUtcDay(ms);
    dayEndMs = dayStartMs + DAY_MS;
    dayText = text;
  }
  return text;
}

/** The start of the UTC minute of an instant. */
export function utcMinute(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

/**
 * Visitors without cookies: a hash of IP and user agent salted with a per-day secret derived from the
 * server's key, so the same person is one visitor for a day, and nothing links days or reveals the IP.
 */
export class VisitorHasher {
  private day = '';
  private salt = Buffer.alloc(0);

  constructor(private readonly key: Buffer) {}

  private saltFor(day: string): Buffer {
    if (day !== this.day) {
      this.day = day;
      this.salt = createHmac('sha256', this.key).update(`visitor-salt:${day}`).digest();
    }
    return this.salt;
  }

  /** A person for the day: the address's network (an IPv6 /64: addressNetwork) and the user agent. */
  visitor(ip: string, userAgent: string, at: Date): string {
    return createHmac('sha256', this.saltFor(utcDay(at)))
      .update(`${addressNetwork(ip)}\n${userAgent}`)
      .digest('base64url')
      .slice(0, 22);
  }

  /** The address's network alone, hashed with the same daily salt (per-address limits, the one-IP share). */
  ip(ip: string, at: Date): string {
    return createHmac('sha256', this.saltFor(utcDay(at)))
      .update(`ip:${addressNetwork(ip)}`)
      .digest('base64url')
      .slice(0, 16);
  }
}

const MOBILE_UA = /Mobi|Android|iPhone|iPod|Windows Phone|Opera Mini/i;
/** A phone's browser (an Android tablet's says Android without Mobile, an iPad's Safari says Macintosh). */
const PHONE_UA = /Mobi|iPhone|iPod|Windows Phone|Opera Mini/i;
/** Tablets whose browsers say Mobile all the same (Chrome and in-app browsers on an iPad say `Mobile/15E148`). */
const TABLET_UA = /iPad|Tablet/i;

/**
 * Desktop or mobile: a phone's browser is mobile whatever width it reports (a page without a viewport tag is
 * laid out 980 px wide on a phone, and a phone turned sideways is wider than 768 px); otherwise the viewport's
 * width the script measured (below 768 px is mobile), else the user agent.
 */
export function deviceOf(userAgent: string, viewportWidth: number | null): Device {
  if (PHONE_UA.test(userAgent) && !TABLET_UA.test(userAgent)) return 'mobile';
  if (viewportWidth !== null && Number.isFinite(viewportWidth) && viewportWidth > 0) {
    return viewportWidth < 768 ? 'mobile' : 'desktop';
  }
  return MOBILE_UA.test(userAgent) ? 'mobile' : 'desktop';
}
