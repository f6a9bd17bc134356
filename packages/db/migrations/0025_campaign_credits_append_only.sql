-- The campaigns' credit entries are append-only, as the money ledger is (0018): a correction is a new entry (a
-- cancellation, a reinstatement), never an edit, so remaining credits always equal what was credited minus what
-- delivery consumed (creditMismatches). The database refuses updates, deletes and truncation.
CREATE OR REPLACE FUNCTION campaign_credits_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'campaign_credits is append-only: write a correcting entry instead'
    USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "campaign_credits_append_only" BEFORE UPDATE OR DELETE ON "campaign_credits"
  FOR EACH ROW EXECUTE FUNCTION campaign_credits_append_only();
--> statement-breakpoint
CREATE TRIGGER "campaign_credits_no_truncate" BEFORE TRUNCATE ON "campaign_credits"
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_credits_append_only();
