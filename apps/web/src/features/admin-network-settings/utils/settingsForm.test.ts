import { describe, expect, it } from 'vitest';
import type { TNetworkSettings } from '@helium/contracts';
import { hasChanges, settingsToSave, unitOf } from './settingsForm.ts';

const shown = {
  id: 4,
  usdToEur: 0.92,
  btcToEur: 60000,
  vatPct: 20,
  sellerDetails: 'Helium Ads SAS',
} as unknown as TNetworkSettings;

describe('settingsToSave', () => {
  it('sends only what changed, with the id of the settings shown', () => {
    const request = settingsToSave(shown, {
      usdToEur: 0.9,
      btcToEur: 60000,
      vatPct: '19,5',
      sellerDetails: ' Helium Ads SAS ',
    });
    expect(request).toEqual({ usdToEur: 0.9, vatPct: 19.5, expectedId: 4 });
    expect(hasChanges(request)).toBe(true);
  });

  it('sends a choice that changed as its text', () => {
    const withChoice = { ...shown, latePaymentAction: 'credit' } as TNetworkSettings;
    expect(settingsToSave(withChoice, { latePaymentAction: 'refund' })).toEqual({
      latePaymentAction: 'refund',
      expectedId: 4,
    });
    expect(hasChanges(settingsToSave(withChoice, { latePaymentAction: 'credit' }))).toBe(false);
  });

  it('leaves an emptied number out and sees no change when nothing changed', () => {
    const request = settingsToSave(shown, { usdToEur: '', btcToEur: 60000 });
    expect(request).toEqual({ expectedId: 4 });
    expect(hasChanges(request)).toBe(false);
  });

  it('sends only settings, not the id, dates or list of changes of the row', () => {
    const row = { ...shown, ratesSetAt: '2026-01-01T00:00:00.000Z', createdAtStr: 'x', changed: ['vatPct'] };
    expect(settingsToSave(row, { ...row, vatPct: 21 })).toEqual({ vatPct: 21, expectedId: 4 });
  });

  it('sends a 0 or a negative value as typed: the server refuses it', () => {
    expect(settingsToSave(shown, { usdToEur: 0 })).toEqual({ usdToEur: 0, expectedId: 4 });
  });
});

describe('unitOf', () => {
  it('names the unit of a field', () => {
    expect(unitOf('vatPct')).toBe('pct');
    expect(unitOf('transferFeeWire')).toBe('eur');
    expect(unitOf('usdToEur')).toBe('rate');
    expect(unitOf('statsDaysAveraged')).toBe(null);
  });
});
