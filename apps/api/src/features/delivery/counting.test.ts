import { describe, expect, it } from 'vitest';
import type { Spent } from './billing.ts';
import { tallyAndSpend } from './counting.ts';
import { SharedStoreError } from './shared/redis-scripts.ts';

/** A spend allowed, recording what happened to its hold. */
function allowedSpend() {
  const hold = { undone: 0, settled: 0 };
  const spent: Spent = {
    ok: true,
    remainingBefore: 10,
    hold: { undo: () => void (hold.undone += 1), settled: () => void (hold.settled += 1) },
  };
  return { spent, hold };
}

describe('tallyAndSpend (a counted event tallied for its address, then its credit spent)', () => {
  it("answers at once with this process's parts, in order: the tally, then the spend", async () => {
    const order: string[] = [];
    const { spent } = allowedSpend();
    const answer = tallyAndSpend(
      () => void order.push('tally'),
      () => (order.push('spend'), spent),
    );
    expect(order).toEqual(['tally', 'spend']);
    expect(await answer).toBe(spent);
  });

  it('sends both to a shared store in the same turn, before either answers', async () => {
    const order: string[] = [];
    let answerTally = () => {};
    const tallied = new Promise<void>((resolve) => (answerTally = resolve));
    const { spent } = allowedSpend();
    const answer = tallyAndSpend(
      () => (order.push('tally'), tallied),
      () => (order.push('spend'), Promise.resolve(spent)),
    );
    expect(order).toEqual(['tally', 'spend']);
    answerTally();
    expect(await answer).toBe(spent);
  });

  it("undoes an allowed spend when the tally failed, and throws the tally's error", async () => {
    const { spent, hold } = allowedSpend();
    const failure = new SharedStoreError(new Error('connection lost'));
    await expect(
      tallyAndSpend(
        () => Promise.reject(failure),
        () => Promise.resolve(spent),
      ),
    ).rejects.toBe(failure);
    expect(hold).toEqual({ undone: 1, settled: 1 });
  });

  it("throws the spend's error once the tally is done, and a refused spend is answered as it is", async () => {
    const failure = new SharedStoreError(new Error('timeout'));
    await expect(
      tallyAndSpend(
        () => Promise.resolve(),
        () => Promise.reject(failure),
      ),
    ).rejects.toBe(failure);
    const refused: Spent = { ok: false, limit: 'noCredits' };
    expect(await tallyAndSpend(null, () => Promise.resolve(refused))).toBe(refused);
    expect(await tallyAndSpend(() => Promise.resolve(), null)).toBeNull();
  });
});
