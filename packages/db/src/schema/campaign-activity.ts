import { boolean, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { publishers } from './accounts.ts';
import { ads } from './ads.ts';
import { users } from './users.ts';

/**
 * The advertiser's per-publisher switch of an ad (the by-publisher activation column, `doShow`). No row
 * means the ad is shown on that publisher; a row with `doShow` false stops it there only.
 */
export const adPublisherActivations = pgTable(
  'ad_publisher_activations',
  {
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id),
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    doShow: boolean('do_show').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.adId, table.publisherId] })],
);

/** What a user did that the product keeps for its own follow-up (POST /api/common/user-activity). */
export const userActivities = pgTable(
  'user_activities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The account in use at the time (advertiser or publisher id); null for an admin. */
    accountId: integer('account_id'),
    activity: text('activity').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('user_activities_user_idx').on(table.userId, table.createdAt)],
);
