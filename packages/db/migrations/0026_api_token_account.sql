ALTER TABLE "api_tokens" ADD COLUMN "account_type" smallint;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "account_id" integer;