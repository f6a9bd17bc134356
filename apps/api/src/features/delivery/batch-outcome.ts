import { sql } from 'drizzle-orm';
import { isDatabaseUnreachable, mayHaveCommitted, NotWrittenError, type Database } from '@helium/db';
import type { DeliveryEvent } from './events.ts';

/** How long a batch whose commit's answer was lost waits for the database, to learn whether it was written. */
export const OUTCOME_WAIT_MS = 5_000;
const OUTCOME_RETRY_MS = 250;

/**
 * Whether a batch was written, read from one row only it can have added (one transaction: all its rows or none):
 * an impression (one per decision), a click or a pageview (new ids). Null when it holds none of them.
 */
async function batchWritten(db: Database, events: readonly DeliveryEvent[]): Promise<boolean | null> {
  for (const event of events) {
    let lookup;
    if (event.t === 'impression') lookup = sql`select 1 from ad_impressions where decision_id = ${event.decisionId}`;
    else if (event.t === 'click') lookup = sql`select 1 from ad_clicks where id = ${event.id}`;
    else if (event.t === 'pageview') lookup = sql`select 1 from pageviews where id = ${event.id}`;
    else continue;
    const { rows } = (await db.execute(lookup)) as unknown as { rows: unknown[] };
    return rows.length > 0;
  }
  return null;
}

/** What the database said of a batch whose commit's answer was lost (the operators' metric counts each). */
export type LostCommitOutcome = 'written' | 'notWritten' | 'unknown';

/**
 * A batch's write failed with its connection: if it may have been committed, asks the database (once it answers,
 * within OUTCOME_WAIT_MS) whether it was, and tells `settled`. Resolves if it was, so that its requests are
 * answered as written; throws NotWrittenError if it was not (what they counted can be given back); else the
 * error, its outcome unknown.
 */
export async function settleLostCommit(
  db: Database,
  events: readonly DeliveryEvent[],
  error: unknown,
  settled: (outcome: LostCommitOutcome) => void = () => {},
  waitMs = OUTCOME_WAIT_MS,
): Promise<void> {
  if (!(error instanceof Error) || !isDatabaseUnreachable(error) || !mayHaveCommitted(error)) throw error;
  for (const deadline = Date.now() + waitMs; Date.now() < deadline;) {
    let written: boolean | null;
    try {
      written = await batchWritten(db, events);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, OUTCOME_RETRY_MS));
      continue;
    }
    if (written === null) break;
    settled(written ? 'written' : 'notWritten');
    if (written) return;
    throw new NotWrittenError(error);
  }
  settled('unknown');
  throw error;
}
