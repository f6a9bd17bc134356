import { describe, expect, it } from 'vitest';
import { accountEntries } from './accountEntries.ts';

const base = {
  type: 1 as const,
  accountId: 7,
  isAdmin: false,
  publishers: [
    { id: 7, brand: 'Daily Owl' },
    { id: 9, brand: 'Tech Blog' },
  ],
  advertisers: [{ id: 3, brand: 'Acme' }],
};

describe('accountEntries', () => {
  it('lists publishers then advertisers with the type,id value and marks the account in use', () => {
    expect(accountEntries(base)).toEqual([
      { value: '1,7', type: 1, brand: 'Daily Owl', current: true },
      { value: '1,9', type: 1, brand: 'Tech Blog', current: false },
      { value: '2,3', type: 2, brand: 'Acme', current: false },
    ]);
  });

  it('adds the Admin entry (value 0) first, only for admins', () => {
    const entries = accountEntries({ ...base, isAdmin: true, type: 0, accountId: null });
    expect(entries[0]).toEqual({ value: '0', type: 0, brand: null, current: true });
    expect(entries.filter((entry) => entry.current)).toHaveLength(1);
    expect(accountEntries(base).some((entry) => entry.type === 0)).toBe(false);
  });

  it('does not confuse a publisher and an advertiser with the same id', () => {
    const entries = accountEntries({ ...base, type: 2, accountId: 7, advertisers: [{ id: 7, brand: 'Same id' }] });
    expect(entries.filter((entry) => entry.current).map((entry) => entry.value)).toEqual(['2,7']);
  });
});
