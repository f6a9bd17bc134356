import { eq } from 'drizzle-orm';
import { users, type Database } from '@helium/db';
import type { TMailPreferences } from '@helium/contracts';
import { hmac, safeEqual } from '../../infra/tokens.ts';

/**
 * The one-click unsubscribe links of the reports (RFC 8058): `/unsubscribe/<user>.<topic>.<signature>`, the
 * signature an HMAC of the user and topic with the session secret (shared by every instance: infra/shared-secret.ts),
 * so the link needs no sign-in and cannot be made for another user. It does not expire: a mail read months later
 * must still stop the next one.
 */
export const UNSUBSCRIBE_TOPICS = ['weekly', 'low-credit'] as const;
export type UnsubscribeTopic = (typeof UNSUBSCRIBE_TOPICS)[number];

/** The user's preference each topic turns off. */
export const PREFERENCE_OF_TOPIC: Record<UnsubscribeTopic, keyof TMailPreferences> = {
  weekly: 'weeklyReport',
  'low-credit': 'lowCreditAlerts',
};

const signature = (secret: string, userId: number, topic: UnsubscribeTopic) =>
  hmac(`unsubscribe:${secret}`, `${userId}\n${topic}`);

export function unsubscribeToken(secret: string, userId: number, topic: UnsubscribeTopic): string {
  return `${userId}.${topic}.${signature(secret, userId, topic)}`;
}

export function unsubscribeUrl(appUrl: string, secret: string, userId: number, topic: UnsubscribeTopic): string {
  return `${appUrl}/unsubscribe/${unsubscribeToken(secret, userId, topic)}`;
}

/** The user and topic of a genuine token; null for anything else. */
export function readUnsubscribeToken(
  secret: string,
  token: string,
): { userId: number; topic: UnsubscribeTopic } | null {
  const match = /^([1-9]\d{0,9})\.([a-z-]{1,20})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const userId = Number(match[1]);
  const topic = match[2] as UnsubscribeTopic;
  if (!UNSUBSCRIBE_TOPICS.includes(topic) || userId > 2_147_483_647) return null;
  return safeEqual(signature(secret, userId, topic), match[3]!) ? { userId, topic } : null;
}

const preferencesOf = (row: { weeklyReportMail: boolean; lowCreditMail: boolean }): TMailPreferences => ({
  weeklyReport: row.weeklyReportMail,
  lowCreditAlerts: row.lowCreditMail,
});

/** The user's choice of report mails; null for an unknown user. */
export async function mailPreferences(db: Database, userId: number): Promise<TMailPreferences | null> {
  const [row] = await db
    .select({ weeklyReportMail: users.weeklyReportMail, lowCreditMail: users.lowCreditMail })
    .from(users)
    .where(eq(users.id, userId));
  return row ? preferencesOf(row) : null;
}

/** Stores what `change` names and answers the choice now stored (null for an unknown user). */
export async function updateMailPreferences(
  db: Database,
  userId: number,
  change: Partial<TMailPreferences>,
): Promise<TMailPreferences | null> {
  const [row] = await db
    .update(users)
    .set({
      ...(change.weeklyReport !== undefined ? { weeklyReportMail: change.weeklyReport } : {}),
      ...(change.lowCreditAlerts !== undefined ? { lowCreditMail: change.lowCreditAlerts } : {}),
    })
    .where(eq(users.id, userId))
    .returning({ weeklyReportMail: users.weeklyReportMail, lowCreditMail: users.lowCreditMail });
  return row ? preferencesOf(row) : null;
}
