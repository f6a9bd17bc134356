import { index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * A personal API token (issue 35; docs/security.md "API tokens"): read-only, it answers the calls its contract marks
 * `token: 'read'` as its user's session would. Only the SHA-256 of the random token is stored, so the table gives no
 * one a working token; the token itself is shown once, at creation. `lastUsedAt` moves at most once a minute.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * The account the token reads (USER_TYPE, and the publisher's or advertiser's id; null for admin): the one in
     * use when it was made, whatever the user chooses in the web app since. Both null for a token made before
     * migration 0026, which reads the account in use.
     */
    accountType: smallint('account_type'),
    accountId: integer('account_id'),
  },
  (table) => [
    uniqueIndex('api_tokens_hash_unique').on(table.tokenHash),
    index('api_tokens_user_idx').on(table.userId, table.createdAt),
  ],
);
