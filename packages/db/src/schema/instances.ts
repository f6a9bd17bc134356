import { sql } from 'drizzle-orm';
import { check, customType, integer, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** PostgreSQL `bytea`: node-postgres reads it as a Buffer (PGlite as a Uint8Array). */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/**
 * Uploaded media kept in the database (MEDIA_STORAGE=postgres), so that every instance of the server reads what
 * any of them stored. Content-addressed as the folder storage is (`key` is the SHA-256 of `bytes` and the
 * extension): a row is written once and never changes. The bytes are stored uncompressed out of line (migration
 * 0020): media are already compressed, and a byte range then reads only its own pages.
 */
export const media = pgTable(
  'media',
  {
    key: text('key').primaryKey(),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('media_key_format', sql`${table.key} ~ '^[a-f0-9]{64}\\.(jpg|png|mp4)$'`),
    check('media_size_matches', sql`${table.size} = octet_length(${table.bytes})`),
  ],
);

/**
 * The session secret shared by every instance on this database, when SESSION_SECRET is not given (config.ts):
 * one row, inserted by the first instance to start (or taken from its DATA_DIR/session-secret), kept for ever.
 */
export const sessionSecret = pgTable(
  'session_secret',
  {
    id: smallint('id').primaryKey().default(1),
    secret: text('secret').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('session_secret_one_row', sql`${table.id} = 1`),
    check('session_secret_long_enough', sql`char_length(${table.secret}) >= 32`),
  ],
);
