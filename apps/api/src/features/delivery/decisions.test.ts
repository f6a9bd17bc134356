import type { Database } from '@helium/db';
import { describe, expect, it } from 'vitest';
import { DecisionBook, RESERVATION_MS, type DecisionState } from './decisions.ts';
import type { TokenPayload } from './tokens.ts';

function decision(id: string, at: number, extra: Partial<DecisionState> = {}): DecisionState {
  return {
    id,
    at,
    reserved: true,
    viewed: false,
    publisherId: 1,
    adId: 1,
    campaignId: 1,
    advertiserId: 1,
    channel: 'web',
    device: 'desktop',
    url: '',
    ...extra,
  };
}

/** Which of `ids` the book still holds: `find` answers those from memory, and fails reading the others (no database). */
async function held(book: DecisionBook, ids: string[]): Promise<string[]> {
  const noIndex = () => {
    throw new Error('no index');
  };
  const found = await Promise.all(
    ids.map((id) => book.find({ decisionId: id } as TokenPayload, 0, noIndex).catch(() => null)),
  );
  return found.flatMap((state) => (state ? [state.id] : []));
}

describe('DecisionBook.sweep', () => {
  it('releases and forgets the decisions older than a reservation, keeps younger and written ones', async () => {
    const released: string[] = [];
    const book = new DecisionBook({} as Database, (expired) => released.push(expired.id));
    const start = 1_000_000;
    book.add(decision('old', start));
    book.add(decision('writing', start + 1, { writing: 1 }));
    book.add(decision('viewed', start + 2, { reserved: false, viewed: true }));
    book.add(decision('young', start + 60_000));
    book.sweep(start + RESERVATION_MS + 10);

    expect(released).toEqual(['old']);
    expect(await held(book, ['old', 'writing', 'viewed', 'young'])).toEqual(['writing', 'young']);

    book.sweep(start + 60_000 + RESERVATION_MS);
    expect(released).toEqual(['old', 'young']);
  });

  it('stops at the first young decision: one added later with an older time waits for those before it', async () => {
    const released: string[] = [];
    const book = new DecisionBook({} as Database, (expired) => released.push(expired.id));
    const start = 1_000_000;
    book.add(decision('young', start + 60_000));
    book.add(decision('read back', start, { reserved: false }));
    book.sweep(start + RESERVATION_MS + 10);
    expect(await held(book, ['young', 'read back'])).toEqual(['young', 'read back']);

    book.sweep(start + 60_000 + RESERVATION_MS);
    expect(released).toEqual(['young']);
    expect(await held(book, ['young', 'read back'])).toEqual([]);
  });
});
