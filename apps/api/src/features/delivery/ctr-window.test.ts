import { describe, expect, it } from 'vitest';
import { CtrWindow } from './ctr-window.ts';

describe('CtrWindow (the last 7 days of docs/decisions.md section 5)', () => {
  it('sums the days of the window and ignores days before it', () => {
    const window = new CtrWindow('2026-11-22');
    window.add('2026-11-16', 1, 100, 2);
    window.add('2026-11-22', 1, 50, 1);
    window.add('2026-11-15', 1, 1_000, 90);
    window.add('2026-11-22', 2, 10, 0);
    expect(window.get(1)).toEqual({ impressions: 150, clicks: 3 });
    expect(window.get(2)).toEqual({ impressions: 10, clicks: 0 });
    expect(window.get(3)).toEqual({ impressions: 0, clicks: 0 });
    expect([...window.values()]).toHaveLength(2);
  });

  it('lets the oldest day leave the sums when a new day starts', () => {
    const window = new CtrWindow('2026-11-22');
    window.add('2026-11-16', 1, 100, 2);
    window.add('2026-11-17', 1, 40, 4);
    window.add('2026-11-16', 2, 5, 5);
    window.roll('2026-11-23');
    expect(window.get(1)).toEqual({ impressions: 40, clicks: 4 });
    expect(window.get(2)).toEqual({ impressions: 0, clicks: 0 });
    expect([...window.values()]).toHaveLength(1);
    window.add('2026-11-23', 1, 10, 0);
    expect(window.get(1)).toEqual({ impressions: 50, clicks: 4 });
    // The 23rd stays in the window until the 29th and leaves it on the 30th.
    window.roll('2026-11-29');
    expect(window.get(1)).toEqual({ impressions: 10, clicks: 0 });
    window.roll('2026-11-30');
    expect(window.get(1)).toEqual({ impressions: 0, clicks: 0 });
  });

  it('undoes what it was given (a batch that failed to be written)', () => {
    const window = new CtrWindow('2026-11-22');
    window.add('2026-11-22', 1, 1, 0);
    window.add('2026-11-22', 1, 0, 1);
    window.add('2026-11-22', 1, 0, -1);
    expect(window.get(1)).toEqual({ impressions: 1, clicks: 0 });
    expect([...window.values()]).toEqual([{ impressions: 1, clicks: 0 }]);
  });
});
