ALTER TABLE "advertisers" ADD COLUMN "invoice_limit" bigint;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "late_payment_action" text DEFAULT 'credit' NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "late_payment" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "late_payment_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "refund_id" text;--> statement-breakpoint
-- A percent-off coupon is now claimed by the sale priced with it, and given back when that sale is cancelled
-- (docs/billing.md). Existing rows follow the new rule: a coupon held by a cancelled sale is given back; one
-- priced into a sale still pending (before, it was marked only once the sale was credited) is claimed by the
-- oldest such sale.
UPDATE "coupon_redemptions" SET "sale_id" = NULL
WHERE "sale_id" IN (SELECT "id" FROM "sales" WHERE "state" = 'cancelled');--> statement-breakpoint
UPDATE "coupon_redemptions" r SET "sale_id" = (
  SELECT min(s."id") FROM "sales" s
  WHERE s."coupon_id" = r."coupon_id" AND s."advertiser_id" = r."advertiser_id" AND s."state" = 'pending'
)
WHERE r."sale_id" IS NULL AND EXISTS (
  SELECT 1 FROM "sales" s
  WHERE s."coupon_id" = r."coupon_id" AND s."advertiser_id" = r."advertiser_id" AND s."state" = 'pending'
);--> statement-breakpoint
CREATE UNIQUE INDEX "coupon_redemptions_sale_unique" ON "coupon_redemptions" USING btree ("sale_id") WHERE "coupon_redemptions"."sale_id" is not null;--> statement-breakpoint
ALTER TABLE "network_settings" ADD CONSTRAINT "network_settings_late_payment_action" CHECK ("network_settings"."late_payment_action" in ('credit', 'refund'));--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_late_payment_kind" CHECK ("sales"."late_payment" is null or "sales"."late_payment" in ('credited', 'refunded', 'refundByHand'));