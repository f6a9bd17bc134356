CREATE TABLE "ledger_balances" (
	"account_type" text NOT NULL,
	"account_id" integer NOT NULL,
	"balance" bigint NOT NULL,
	"last_entry_id" bigint NOT NULL,
	CONSTRAINT "ledger_balances_account_type_account_id_pk" PRIMARY KEY("account_type","account_id")
);
--> statement-breakpoint
CREATE TABLE "money_audit_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"trigger" text NOT NULL,
	"requested_by" integer,
	"ok" boolean NOT NULL,
	"checks" json NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "money_audit_runs" ADD CONSTRAINT "money_audit_runs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "money_audit_runs_started_idx" ON "money_audit_runs" USING btree ("started_at");--> statement-breakpoint
-- The ledger is append-only (a correction is a new entry): the database refuses updates, deletes and truncation,
-- so the balances kept below always equal the sums of the entries.
CREATE OR REPLACE FUNCTION ledger_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only: write a correcting entry instead'
    USING ERRCODE = 'restrict_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_append_only" BEFORE UPDATE OR DELETE ON "ledger_entries"
  FOR EACH ROW EXECUTE FUNCTION ledger_entries_append_only();
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_no_truncate" BEFORE TRUNCATE ON "ledger_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_append_only();
--> statement-breakpoint
-- Each account's balance moves in the statement that inserts its entries, whoever writes them: one upsert per
-- account of the statement (the daily ledger's statement posts a day for every publisher at once). Accounts in a
-- fixed order, so that two statements touching the same accounts wait for each other instead of deadlocking.
CREATE OR REPLACE FUNCTION ledger_balances_add_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ledger_balances (account_type, account_id, balance, last_entry_id)
  SELECT account_type, account_id, sum(amount), max(id) FROM inserted_entries
  GROUP BY account_type, account_id
  ORDER BY account_type, account_id
  ON CONFLICT (account_type, account_id) DO UPDATE
    SET balance = ledger_balances.balance + excluded.balance,
      last_entry_id = greatest(ledger_balances.last_entry_id, excluded.last_entry_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Writers wait while the balances are computed and the trigger created (the migration's transaction), so no entry
-- is counted twice or missed on a database already holding a ledger.
LOCK TABLE "ledger_entries" IN SHARE MODE;
--> statement-breakpoint
CREATE TRIGGER "ledger_entries_keep_balances" AFTER INSERT ON "ledger_entries"
  REFERENCING NEW TABLE AS inserted_entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_balances_add_entries();
--> statement-breakpoint
INSERT INTO "ledger_balances" (account_type, account_id, balance, last_entry_id)
SELECT account_type, account_id, sum(amount), max(id) FROM "ledger_entries" GROUP BY account_type, account_id;
