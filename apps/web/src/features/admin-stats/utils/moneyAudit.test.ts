import { describe, expect, it } from 'vitest';
import { knownCheck, rowColumns } from './moneyAudit.ts';

describe('the money audit on Stats', () => {
  it('knows the checks of the contract, and not others', () => {
    expect(knownCheck('ledgerBalances')).toBe('ledgerBalances');
    expect(knownCheck('somethingRetired')).toBeNull();
  });

  it("lists the rows' columns in their order, once each", () => {
    expect(rowColumns([])).toEqual([]);
    expect(
      rowColumns([
        { saleId: 1, state: 'paid' },
        { saleId: 2, state: 'paid', extra: null },
      ]),
    ).toEqual(['saleId', 'state', 'extra']);
  });
});
