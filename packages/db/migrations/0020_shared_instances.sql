CREATE TABLE "media" (
	"key" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_key_format" CHECK ("media"."key" ~ '^[a-f0-9]{64}\.(jpg|png|mp4)$'),
	CONSTRAINT "media_size_matches" CHECK ("media"."size" = octet_length("media"."bytes"))
);
--> statement-breakpoint
CREATE TABLE "session_secret" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_secret_one_row" CHECK ("session_secret"."id" = 1),
	CONSTRAINT "session_secret_long_enough" CHECK (char_length("session_secret"."secret") >= 32)
);
--> statement-breakpoint
-- Media are already compressed (jpg, png, mp4): stored uncompressed out of line, a byte range reads only its pages.
ALTER TABLE "media" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
