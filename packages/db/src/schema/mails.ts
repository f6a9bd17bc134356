import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { campaigns } from './accounts.ts';
import { users } from './users.ts';

/** The mails the server sends on its own, on a timer (docs/emails.md): each recorded once, before it goes out. */
export const SENT_MAIL_KINDS = ['weekly-advertiser', 'weekly-publisher', 'low-credit'] as const;
export type SentMailKind = (typeof SENT_MAIL_KINDS)[number];

/**
 * Each mail of a timed job, recorded before it is sent: a run that finds its row already there sends nothing, so
 * a second run for the same week (another instance, a restart, an admin's Run now) sends nothing new. A weekly
 * report is once per user, kind and week (the Monday of the week it reports); a low-credit alert once per
 * campaign and week (the Monday of the week it was sent in). A row whose mail could not be sent is deleted, so
 * that the next run tries again.
 */
export const sentMails = pgTable(
  'sent_mails',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SENT_MAIL_KINDS }).notNull(),
    /** The Monday (UTC) of the week the mail is for. */
    week: date('week', { mode: 'string' }).notNull(),
    /** The campaign a low-credit alert is about; null for the weekly reports. */
    campaignId: integer('campaign_id').references(() => campaigns.id, { onDelete: 'cascade' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('sent_mails_user_kind_week_unique')
      .on(table.userId, table.kind, table.week)
      .where(sql`${table.campaignId} is null`),
    uniqueIndex('sent_mails_campaign_kind_week_unique')
      .on(table.campaignId, table.kind, table.week)
      .where(sql`${table.campaignId} is not null`),
    index('sent_mails_week_idx').on(table.week),
  ],
);
