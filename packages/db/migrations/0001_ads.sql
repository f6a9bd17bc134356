CREATE TABLE "ad_publisher_validations" (
	"ad_id" integer NOT NULL,
	"publisher_id" integer NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"requested_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "ad_publisher_validations_ad_id_publisher_id_pk" PRIMARY KEY("ad_id","publisher_id")
);
--> statement-breakpoint
CREATE TABLE "ads" (
	"id" serial PRIMARY KEY NOT NULL,
	"advertiser_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"type" text NOT NULL,
	"image" text,
	"mp4" text,
	"poster" text,
	"filesize" integer DEFAULT 0 NOT NULL,
	"width" integer,
	"height" integer,
	"format_id" smallint NOT NULL,
	"link" text,
	"is_web_only" boolean DEFAULT false NOT NULL,
	"is_owl_only" boolean DEFAULT false NOT NULL,
	"is_video_thumbnail_ready" boolean DEFAULT false NOT NULL,
	"admin_validation" smallint DEFAULT 0 NOT NULL,
	"submitted_at" timestamp with time zone,
	"admin_validated_at" timestamp with time zone,
	"is_emailed_as_validated" boolean DEFAULT false NOT NULL,
	"is_showing" boolean DEFAULT true NOT NULL,
	"is_ejected" boolean DEFAULT false NOT NULL,
	"is_locked" boolean DEFAULT false NOT NULL,
	"budget" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ad_publisher_validations" ADD CONSTRAINT "ad_publisher_validations_ad_id_ads_id_fk" FOREIGN KEY ("ad_id") REFERENCES "public"."ads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ad_publisher_validations" ADD CONSTRAINT "ad_publisher_validations_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_advertiser_id_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ads" ADD CONSTRAINT "ads_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ads_advertiser_idx" ON "ads" USING btree ("advertiser_id");--> statement-breakpoint
CREATE INDEX "ads_campaign_idx" ON "ads" USING btree ("campaign_id");