CREATE TABLE "sent_mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"week" date NOT NULL,
	"campaign_id" integer,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "weekly_report_mail" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "low_credit_mail" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "sent_mails" ADD CONSTRAINT "sent_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sent_mails" ADD CONSTRAINT "sent_mails_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sent_mails_user_kind_week_unique" ON "sent_mails" USING btree ("user_id","kind","week") WHERE "sent_mails"."campaign_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sent_mails_campaign_kind_week_unique" ON "sent_mails" USING btree ("campaign_id","kind","week") WHERE "sent_mails"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "sent_mails_week_idx" ON "sent_mails" USING btree ("week");