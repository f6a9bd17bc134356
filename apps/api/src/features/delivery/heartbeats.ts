import { isOnRegisteredDomain } from '@helium/domain';
import type { IndexedPublisher } from './ad-index.ts';
import { NEWSLETTER_HEARTBEAT_HOST, type DeliveryEvent } from './events.ts';

/** A host's heartbeat is recorded at most this often per publisher (the script's is sent with every pageview). */
const HEARTBEAT_EVERY_MS = 60_000;

/**
 * Install heartbeats: the publisher's pages (or its newsletter's banner) were seen on a host. Recorded at most once
 * a minute per publisher and host by this process; the first from the registered domain installs the publisher.
 */
export class Heartbeats {
  private seen = new Map<string, number>();

  /** A page of `host` ran the script. */
  page(publisher: IndexedPublisher, host: string, at: Date, events: DeliveryEvent[]): void {
    if (!host) return;
    const key = `${publisher.id}|${host}`;
    if (this.seen.has(key)) return;
    const clean = host.toLowerCase().replace(/^www\./, '');
    // A page on a host named like the newsletter's heartbeat does not pass for a banner shown in an issue.
    if (clean === NEWSLETTER_HEARTBEAT_HOST) return;
    this.seen.set(key, at.getTime());
    const isRegisteredDomain = isOnRegisteredDomain(clean, publisher.domain);
    if (isRegisteredDomain) publisher.isInstalled = true;
    events.push({ t: 'heartbeat', publisherId: publisher.id, host: clean, installs: isRegisteredDomain, at });
  }

  /**
   * A newsletter's banner image was requested, so an issue went out with the snippet and the publisher is
   * installed, whether or not an ad could be chosen.
   */
  newsletter(publisher: IndexedPublisher, at: Date, events: DeliveryEvent[]): void {
    const key = `${publisher.id}|${NEWSLETTER_HEARTBEAT_HOST}`;
    if (!publisher.isOwl || this.seen.has(key)) return;
    this.seen.set(key, at.getTime());
    publisher.isInstalled = true;
    events.push({ t: 'heartbeat', publisherId: publisher.id, host: NEWSLETTER_HEARTBEAT_HOST, installs: true, at });
  }

  sweep(nowMs: number): void {
    for (const [key, at] of this.seen) if (nowMs - at >= HEARTBEAT_EVERY_MS) this.seen.delete(key);
  }
}
