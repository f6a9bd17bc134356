import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { advertisers, campaigns, publishers } from './accounts.ts';

/**
 * An ad: one image or video of a campaign, with its redirect link. Validation states use the
 * specification's codes: 0 not requested, 1 approved, 2 rejected, 3 awaiting decision.
 */
export const ads = pgTable(
  'ads',
  {
    id: serial('id').primaryKey(),
    advertiserId: integer('advertiser_id')
      .notNull()
      .references(() => advertisers.id),
    campaignId: integer('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    type: text('type', { enum: ['image', 'video'] }).notNull(),
    /** Storage keys of the media (content-addressed names under DATA_DIR/media). */
    image: text('image'),
    mp4: text('mp4'),
    poster: text('poster'),
    /**
     * The small JPEG the screens show in thumbnails (at most 160 pixels high, made by ffmpeg from the image or the
     * video's poster), or the image or poster itself when it is already lighter; null until one exists (screens
     * then show the full media).
     */
    preview: text('preview'),
    filesize: integer('filesize').notNull().default(0),
    width: integer('width'),
    height: integer('height'),
    /** 1 vertical, 2 newsletter, 3 square, 4 horizontal, 5 horizontal-large. */
    formatId: smallint('format_id').notNull(),
    link: text('link'),
    isWebOnly: boolean('is_web_only').notNull().default(false),
    isOwlOnly: boolean('is_owl_only').notNull().default(false),
    isVideoThumbnailReady: boolean('is_video_thumbnail_ready').notNull().default(false),
    adminValidation: smallint('admin_validation').notNull().default(0),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    adminValidatedAt: timestamp('admin_validated_at', { withTimezone: true }),
    isEmailedAsValidated: boolean('is_emailed_as_validated').notNull().default(false),
    /** Switched on by the advertiser (the activation column). */
    isShowing: boolean('is_showing').notNull().default(true),
    isEjected: boolean('is_ejected').notNull().default(false),
    isLocked: boolean('is_locked').notNull().default(false),
    /** Spending cap of this ad in micro-euros; 0 = no cap. */
    budget: bigint('budget', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (table) => [index('ads_advertiser_idx').on(table.advertiserId), index('ads_campaign_idx').on(table.campaignId)],
);

/** One publisher's decision on one ad (same state codes), requested by e-mail or forced by an admin. */
export const adPublisherValidations = pgTable(
  'ad_publisher_validations',
  {
    adId: integer('ad_id')
      .notNull()
      .references(() => ads.id),
    publisherId: integer('publisher_id')
      .notNull()
      .references(() => publishers.id),
    state: smallint('state').notNull().default(0),
    requestedAt: timestamp('requested_at', { withTimezone: true }),
    /** A request not answered by then counts as approved. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** When the state became 1 or 2; the publisher may change it within 24 hours of this. */
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by', { enum: ['publisher', 'admin', 'timeout'] }),
  },
  (table) => [primaryKey({ columns: [table.adId, table.publisherId] })],
);
