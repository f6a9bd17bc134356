import { eq, sql } from 'drizzle-orm';
import type { TCheckInstallResponse, TGetInstallationDataResponse } from '@helium/contracts';
import { NEWSLETTER_ISSUE_PLACEHOLDER } from '@helium/contracts';
import { installHeartbeats, owlIssueAds, publishers, users, type Database } from '@helium/db';
import { isOnRegisteredDomain } from '@helium/domain';
import type { AppConfig } from '../../config.ts';
import { NEWSLETTER_HEARTBEAT_HOST } from '../delivery/events.ts';
import { notFound } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';

/** Where the built-in newsletter tutorial is served when NEWSLETTER_TUTORIAL_URL is not set. */
export const NEWSLETTER_TUTORIAL_PATH = '/serve/newsletter-tutorial';

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * The one line publishers paste between the head tags: what `/serve/script.js` reads (`data-publisher`).
 * No version in the address: a pasted line stays for years, and the unversioned script is cached 5 minutes,
 * so publishers get script updates without touching their pages.
 */
export function lineOfCode(appUrl: string, publisherId: number): string {
  return `<script async src="${escapeAttribute(appUrl)}/serve/script.js" data-publisher="${publisherId}"></script>`;
}

/**
 * A newsletter banner snippet: an image and a click link keyed by the publisher's hash id, the banner (1 top,
 * 2 bottom) and the issue, which the newsletter tool fills in for each issue it sends.
 */
export function owlBanner(appUrl: string, publisherHashId: string, banner: 1 | 2, locale: 'en' | 'fr'): string {
  const base = `${escapeAttribute(appUrl)}/serve/owl/${publisherHashId}/${banner}/${NEWSLETTER_ISSUE_PLACEHOLDER}`;
  // What a reader whose mail client blocks images sees: in the newsletter's language, taken as its publisher's.
  const alt = locale === 'fr' ? 'Publicité' : 'Ad';
  return (
    `<a href="${base}/click" target="_blank" rel="noopener">` +
    `<img src="${base}/image" width="600" alt="${alt}" style="display:block;width:100%;max-width:600px;height:auto;border:0"></a>`
  );
}

async function publisherById(db: Database, publisherId: number) {
  const [publisher] = await db.select().from(publishers).where(eq(publishers.id, publisherId)).limit(1);
  if (!publisher) throw notFound();
  return publisher;
}

export async function installationData(
  db: Database,
  config: AppConfig,
  hashIds: HashIds,
  publisherId: number,
  /** The signed-in user, whose language the newsletter snippets' text takes. */
  userId: number,
): Promise<TGetInstallationDataResponse> {
  const publisher = await publisherById(db, publisherId);
  const hashId = hashIds.encodePublisher(publisher.id);
  const [user] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, userId)).limit(1);
  const locale = user?.locale ?? 'en';
  return {
    publisher: { id: publisher.id, brand: publisher.brand },
    lineOfCode1: lineOfCode(config.appUrl, publisher.id),
    publisherInstallCheckTimout: config.publisherInstallCheckSeconds,
    tutorialUrl: publisher.isOwl
      ? (config.newsletterTutorialUrl ?? `${config.appUrl}${NEWSLETTER_TUTORIAL_PATH}`)
      : null,
    tutorialMinutes: publisher.isOwl ? config.newsletterTutorialMinutes : null,
    owlHtmlBanner1: publisher.isOwl ? owlBanner(config.appUrl, hashId, 1, locale) : null,
    owlHtmlBanner2: publisher.isOwl ? owlBanner(config.appUrl, hashId, 2, locale) : null,
  };
}

/**
 * Installed when the script's heartbeat came from the publisher's registered domain; a newsletter, when its
 * banner image was requested (its heartbeat), or, before those heartbeats were recorded, when one of its issues
 * chose an ad. `lastSeenAt` is the latest such signal.
 */
export async function checkInstall(db: Database, publisherId: number): Promise<TCheckInstallResponse> {
  const publisher = await publisherById(db, publisherId);
  const heartbeats = await db
    .select({ host: installHeartbeats.host, lastSeenAt: installHeartbeats.lastSeenAt })
    .from(installHeartbeats)
    .where(eq(installHeartbeats.publisherId, publisher.id));
  let lastSeen: Date | null = null;
  for (const heartbeat of heartbeats) {
    const installs =
      isOnRegisteredDomain(heartbeat.host, publisher.domain) ||
      (publisher.isOwl && heartbeat.host === NEWSLETTER_HEARTBEAT_HOST);
    if (!installs) continue;
    if (!lastSeen || heartbeat.lastSeenAt > lastSeen) lastSeen = heartbeat.lastSeenAt;
  }
  if (!lastSeen && publisher.isOwl) {
    const [issue] = await db
      .select({ at: sql<Date | string | null>`max(${owlIssueAds.createdAt})` })
      .from(owlIssueAds)
      .where(eq(owlIssueAds.publisherId, publisher.id));
    if (issue?.at) lastSeen = new Date(issue.at);
  }
  return {
    isInstalled: lastSeen !== null,
    domain: publisher.domain,
    lastSeenAt: lastSeen ? lastSeen.toISOString() : null,
  };
}
