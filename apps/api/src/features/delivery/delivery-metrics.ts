import type { DeliveryEvent } from './events.ts';
import type { ReversedEvent } from './event-reads.ts';
import type { AddressRule } from './traffic-filter.ts';
import type { LostCommitOutcome } from './batch-outcome.ts';

/** What the delivery engine reports to the app's metrics (infra/metrics.ts): batches, events, reservations. */
export interface DeliveryMetrics {
  /** A group-commit batch was written (`ok`), or refused or lost, after `seconds`. */
  batch(events: readonly DeliveryEvent[], seconds: number, ok: boolean): void;
  /** A batch's commit answer was lost, and the database said it was written, or not, or did not answer in time. */
  lostCommit(outcome: LostCommitOutcome): void;
  /** A set-aside reversed these billed events of an address, by the rule that tripped. */
  setAside(reason: AddressRule, events: readonly ReversedEvent[]): void;
  /** A CPM credit promised to a served ad (`reserved`), or refused (another instance took the last one). */
  reservation(outcome: 'reserved' | 'refused'): void;
}

/** An engine built without metrics (unit tests of its parts). */
export const NO_DELIVERY_METRICS: DeliveryMetrics = { batch() {}, lostCommit() {}, setAside() {}, reservation() {} };
