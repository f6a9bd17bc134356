import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * An admin's one-time "Sign In ->" link to a user's session (docs/decisions.md section 7): only the hash of its random
 * token is stored; it works for a few minutes, once (`usedAt` is set by a compare-and-set), and only in the browser
 * of the admin who asked for it. Each use is in `audit_log` (`user.signinAs`).
 */
export const signinLinks = pgTable(
  'signin_links',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('signin_links_token_unique').on(table.tokenHash),
    index('signin_links_expires_idx').on(table.expiresAt),
  ],
);
