import { describe, expect, it } from 'vitest';
import { MAX_RESTART_DELAY_MS, restartDelayMs } from './workers.ts';

describe('replacing a WORKERS process (workers.ts)', () => {
  it('waits 1 s after one that served, twice as long after each start that failed in a row, 30 s at most', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map(restartDelayMs)).toEqual([
      1_000,
      1_000,
      2_000,
      4_000,
      8_000,
      16_000,
      MAX_RESTART_DELAY_MS,
      MAX_RESTART_DELAY_MS,
    ]);
    expect(MAX_RESTART_DELAY_MS).toBe(30_000);
  });
});
