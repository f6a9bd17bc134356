CREATE TABLE "campaign_credits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"kind" text NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"clicks" bigint DEFAULT 0 NOT NULL,
	"sale_id" integer,
	"coupon_id" integer,
	"note" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupon_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"coupon_id" integer NOT NULL,
	"advertiser_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"sale_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coupons" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"percent_off_bp" integer,
	"free_quantity" bigint,
	"expires_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_one_effect" CHECK ((percent_off_bp is null) <> (free_quantity is null))
);
--> statement-breakpoint
CREATE TABLE "invoice_numbers" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" serial PRIMARY KEY NOT NULL,
	"advertiser_id" integer NOT NULL,
	"campaign_id" integer NOT NULL,
	"method" text NOT NULL,
	"state" text NOT NULL,
	"quantity" bigint NOT NULL,
	"is_cpc" boolean NOT NULL,
	"full_price" bigint NOT NULL,
	"discount_bp" integer DEFAULT 0 NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text NOT NULL,
	"amount_in_currency" bigint NOT NULL,
	"rate" text,
	"coupon_id" integer,
	"stripe_session_id" text,
	"invoice_number" integer,
	"billing_information" text,
	"due_at" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "can_buy_in_btc" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "can_bill_to_pay" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "do_not_discount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "buy_max" bigint;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "buy_step" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "buy_quantity" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "discount_threshold1_bp" integer DEFAULT 2500 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "discount_threshold2_bp" integer DEFAULT 5000 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "discount_threshold3_bp" integer DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "discount_amount1_bp" integer DEFAULT 500 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "discount_amount2_bp" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "discount_amount3_bp" integer DEFAULT 1500 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "extra_discount_for_btc_bp" integer DEFAULT 500 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "extra_discount_for_usd_bp" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "vat_bp" integer DEFAULT 2000 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "bitcoin_address" text DEFAULT 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "seller_details" text DEFAULT 'Helium Ads SAS
10 rue de la Paix
75002 Paris, France
VAT FR00123456789' NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "bank_details" text DEFAULT 'IBAN FR76 3000 6000 0112 3456 7890 189
BIC AGRIFRPP' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_credits" ADD CONSTRAINT "campaign_credits_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_credits" ADD CONSTRAINT "campaign_credits_sale_id_sales_id_fk" FOREIGN KEY ("sale_id") REFERENCES "public"."sales"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_credits" ADD CONSTRAINT "campaign_credits_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_credits" ADD CONSTRAINT "campaign_credits_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_advertiser_id_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupon_redemptions" ADD CONSTRAINT "coupon_redemptions_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_advertiser_id_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_credits_campaign_idx" ON "campaign_credits" USING btree ("campaign_id");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_credits_sale_once" ON "campaign_credits" USING btree ("sale_id","kind") WHERE "campaign_credits"."sale_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_credits_coupon_once" ON "campaign_credits" USING btree ("campaign_id","coupon_id") WHERE "campaign_credits"."coupon_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_once_per_advertiser" ON "coupon_redemptions" USING btree ("coupon_id","advertiser_id");--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_code_unique" ON "coupons" USING btree ("code");--> statement-breakpoint
CREATE INDEX "sales_advertiser_idx" ON "sales" USING btree ("advertiser_id","created_at");--> statement-breakpoint
CREATE INDEX "sales_state_idx" ON "sales" USING btree ("state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sales_stripe_session_unique" ON "sales" USING btree ("stripe_session_id") WHERE "sales"."stripe_session_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sales_invoice_number_unique" ON "sales" USING btree ("invoice_number") WHERE "sales"."invoice_number" is not null;--> statement-breakpoint
INSERT INTO "invoice_numbers" ("id", "last_number") VALUES (1, 0);
--> statement-breakpoint
-- Each campaign's credits so far become its opening entry: what remains plus what delivery consumed, so that
-- remaining = credited - consumed holds from here on (docs/billing.md).
INSERT INTO "campaign_credits" ("campaign_id", "kind", "impressions", "clicks", "note")
SELECT c.id, 'opening',
  CASE WHEN c.is_cpc THEN 0 ELSE c.remaining_impressions + coalesce(d.impressions, 0) END,
  CASE WHEN c.is_cpc THEN c.remaining_clicks + coalesce(d.clicks, 0) ELSE 0 END,
  'Credits before the ledger of credits'
FROM "campaigns" c
LEFT JOIN (
  SELECT campaign_id, sum(impressions) AS impressions, sum(clicks) AS clicks FROM "daily_ad_stats" GROUP BY campaign_id
) d ON d.campaign_id = c.id;
