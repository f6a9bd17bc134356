import { describe, expect, it } from 'vitest';
import { decisionRequest, detailEntries, payoutStateColour } from './payouts.ts';

describe('detailEntries', () => {
  it('lists the known details in order, then the others, leaving empty ones out', () => {
    expect(
      detailEntries({
        userPhoneNumber: '',
        iban: 'FR1420041010050500013M02606',
        zeta: 'z',
        bankName: 'Banque Démo',
        bic: 'BNPAFRPP',
        userName: 'Julien Martin',
      }),
    ).toEqual([
      { key: 'bankName', known: 'bankName', value: 'Banque Démo' },
      { key: 'bic', known: 'bic', value: 'BNPAFRPP' },
      { key: 'iban', known: 'iban', value: 'FR1420041010050500013M02606' },
      { key: 'userName', known: 'userName', value: 'Julien Martin' },
      { key: 'zeta', known: null, value: 'z' },
    ]);
    expect(detailEntries({ email: 'owner@demo.test' })).toEqual([
      { key: 'email', known: 'email', value: 'owner@demo.test' },
    ]);
  });
});

describe('decisionRequest', () => {
  it('needs a reference to mark paid and a reason to mark returned', () => {
    expect(decisionRequest(7, 'paid', '  ')).toBeNull();
    expect(decisionRequest(7, 'paid', ' TRX-1 ')).toEqual({ payoutId: 7, action: 'paid', reference: 'TRX-1' });
    expect(decisionRequest(7, 'returned', 'Wrong IBAN')).toEqual({
      payoutId: 7,
      action: 'returned',
      reason: 'Wrong IBAN',
    });
  });
});

describe('payoutStateColour', () => {
  it('tells pending, paid and returned apart', () => {
    expect(['pending', 'paid', 'returned'].map((state) => payoutStateColour(state as 'paid'))).toEqual([
      'yellow',
      'teal',
      'orange',
    ]);
  });
});
