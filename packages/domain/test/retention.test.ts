import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RAW_EVENT_DAYS,
  INVALID_TRAFFIC_MAX_DAYS,
  MIN_RAW_EVENT_DAYS,
  retentionCutoffs,
} from '../src/retention.ts';

describe('raw event retention', () => {
  it.each([
    // today, RAW_EVENT_DAYS, first day kept: events, invalid traffic, realtime counters
    ['2026-11-27', 90, '2026-08-30', '2026-08-30', '2026-11-26'],
    ['2026-11-27', 365, '2025-11-28', '2025-11-28', '2026-11-26'],
    // Fewer days than the invalid-traffic screen reads: its rows stay 90 days.
    ['2026-11-27', 40, '2026-10-19', '2026-08-30', '2026-11-26'],
    // Under the floor (the configuration refuses it): leads still find their clicks and decisions.
    ['2026-11-27', 7, '2026-10-27', '2026-08-30', '2026-11-26'],
    ['2024-03-01', 32, '2024-01-30', '2023-12-03', '2024-02-29'],
  ])(
    'today %s with %i days keeps events from %s, invalid traffic from %s, counters from %s',
    (today, days, events, invalid, realtime) => {
      expect(retentionCutoffs(today, days)).toEqual({ events, invalidTraffic: invalid, realtimeCounters: realtime });
    },
  );

  it('keeps what the product reads back: 30-day leads of a click a day after its decision, 90 days of invalid traffic', () => {
    // The oldest decision a lead reads is 31 days old; the first day kept starts at most 31 days before now.
    const { events } = retentionCutoffs('2026-11-27', MIN_RAW_EVENT_DAYS);
    const keptSince = Date.parse(`${events}T00:00:00Z`);
    const midnight = Date.parse('2026-11-27T00:00:00Z');
    expect(midnight - keptSince).toBe(31 * 86_400_000);
    expect(DEFAULT_RAW_EVENT_DAYS).toBeGreaterThanOrEqual(INVALID_TRAFFIC_MAX_DAYS);
  });
});
