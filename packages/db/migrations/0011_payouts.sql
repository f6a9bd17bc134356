CREATE TABLE "payout_methods" (
	"publisher_id" integer NOT NULL,
	"method" text NOT NULL,
	"details" jsonb NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_methods_publisher_id_method_pk" PRIMARY KEY("publisher_id","method")
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"publisher_id" integer NOT NULL,
	"method" text NOT NULL,
	"currency" text NOT NULL,
	"state" text NOT NULL,
	"amount" bigint NOT NULL,
	"transfer_fee" bigint DEFAULT 0 NOT NULL,
	"amount_in_currency" bigint NOT NULL,
	"rate" text,
	"details" jsonb NOT NULL,
	"ledger_entry_id" bigint,
	"reference" text,
	"reason" text,
	"requested_by" integer,
	"decided_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "publishers" ADD COLUMN "authorized_payout_methods" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "transfer_fee_paypal_eur" bigint DEFAULT 1000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "network_settings" ADD COLUMN "transfer_fee_wire_eur" bigint DEFAULT 5000000 NOT NULL;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_methods" ADD CONSTRAINT "payout_methods_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_publisher_id_publishers_id_fk" FOREIGN KEY ("publisher_id") REFERENCES "public"."publishers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_publisher_idx" ON "payouts" USING btree ("publisher_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_one_pending_per_publisher" ON "payouts" USING btree ("publisher_id") WHERE "payouts"."state" = 'pending';