import { describe, expect, it } from 'vitest';
import { billingAddressToSave, receiptPath, saleStateColour } from './settings.ts';

describe('billingAddressToSave', () => {
  it('refuses an empty or blank address and trims the rest', () => {
    expect(billingAddressToSave('')).toBeNull();
    expect(billingAddressToSave('  \n ')).toBeNull();
    expect(billingAddressToSave(' ACME\n1 rue de la Paix\n')).toBe('ACME\n1 rue de la Paix');
  });
});

describe('saleStateColour', () => {
  it('tells paid, pending, unpaid and cancelled apart', () => {
    expect(['paid', 'pending', 'unpaid', 'cancelled'].map((s) => saleStateColour(s as 'paid'))).toEqual([
      'teal',
      'yellow',
      'orange',
      'gray',
    ]);
  });
});

describe('receiptPath', () => {
  it('links to the receipt by the hash id', () => {
    expect(receiptPath('aB3x')).toBe('/advertiser/receipt/aB3x');
  });
});
