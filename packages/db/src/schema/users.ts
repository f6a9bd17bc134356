import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/**
 * A person who signs in. `currentType`/`currentAccountId` is the account in use (the switcher's choice),
 * kept on the user so it survives new sessions.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    locale: text('locale', { enum: ['en', 'fr'] })
      .notNull()
      .default('en'),
    currency: text('currency', { enum: ['eur', 'usd', 'btc'] })
      .notNull()
      .default('eur'),
    isAdmin: boolean('is_admin').notNull().default(false),
    currentType: smallint('current_type').notNull(),
    currentAccountId: integer('current_account_id'),
    businessId: text('business_id'),
    cannotAddAds: boolean('cannot_add_ads').notNull().default(false),
    agreedAt: timestamp('agreed_at', { withTimezone: true }),
    /** The weekly summary by e-mail each Monday (docs/emails.md); off after an unsubscribe link or on Settings. */
    weeklyReportMail: boolean('weekly_report_mail').notNull().default(true),
    /** The alert when a campaign's credits will last under LOW_CREDIT_DAYS at its recent pace. */
    lowCreditMail: boolean('low_credit_mail').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('users_email_unique').on(sql`lower(${table.email})`)],
);

/**
 * A signed-in browser. The cookie holds a random token; only its hash is stored, so a leaked table signs no one in.
 * An admin acting as a user (docs/security.md, "Acting as a user") has a session of the user's with
 * `impersonatorId` = the admin and `actingFromSessionId` = the admin's own session, which stays live meanwhile.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    impersonatorId: integer('impersonator_id').references(() => users.id),
    actingFromSessionId: text('acting_from_session_id').references((): AnyPgColumn => sessions.id, {
      onDelete: 'cascade',
    }),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/** A 6-digit sign-in code sent by e-mail: valid 15 minutes, used once. Only its keyed hash is stored. */
export const loginCodes = pgTable(
  'login_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [index('login_codes_user_idx').on(table.userId, table.createdAt)],
);
