import { describe, expect, it } from 'vitest';
import type { TNetworkSettings } from '@helium/contracts';
import { ApiError } from '../../../api/client.ts';
import { hasChanges, settingsErrors, settingsToSave, unitOf } from './settingsForm.ts';

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

describe('settingsErrors', () => {
  const inForce = {
    ...shown,
    publisherRevenueSharePct: 70,
    salesRepRevenueSharePct: 10,
    discountThreshold1Pct: 25,
    discountThreshold2Pct: 50,
    discountThreshold3Pct: 100,
  } as TNetworkSettings;
  const refusal = (...issues: Array<{ path: string; message: string }>) =>
    new ApiError(422, { status: 'invalidRequest', message: 'The request is not valid.', issues });

  it('words each refused number from the rule it breaks, beside its field', () => {
    const error = refusal(
      { path: 'btcToEur', message: 'At most 2 decimals (stored exactly)' },
      { path: 'usdToEur', message: 'At least 0.01' },
      { path: 'statsDaysAveraged', message: 'Expected a whole number' },
    );
    expect(settingsErrors(error, inForce, { btcToEur: 0.001, usdToEur: 0.001, statsDaysAveraged: 1.5 })).toEqual({
      btcToEur: { key: 'tooManyDecimals', values: { decimals: 2 } },
      usdToEur: { key: 'belowMin', values: { min: 0.01 } },
      statsDaysAveraged: { key: 'wholeNumber' },
    });
  });

  it('words a rule across fields on the field the server names, from the settings merged', () => {
    const error = new ApiError(422, {
      status: 'invalidSettings',
      message: 'salesRepRevenueSharePct: ...',
      issues: [{ path: 'salesRepRevenueSharePct', message: 'The shares together cannot be above 100 %.' }],
    });
    expect(settingsErrors(error, inForce, { salesRepRevenueSharePct: 40 })).toEqual({
      salesRepRevenueSharePct: { key: 'sharesAbove100' },
    });
  });

  it('keeps the server text where no rule of the screen explains it, and gives the form the rest', () => {
    expect(settingsErrors(refusal({ path: 'vatPct', message: 'Odd' }), inForce, { vatPct: 20 })).toEqual({
      vatPct: { text: 'Odd' },
    });
    expect(settingsErrors(refusal({ path: '', message: 'Send at least one setting' }), inForce, {})).toEqual({
      form: { text: 'Send at least one setting' },
    });
    expect(settingsErrors(new ApiError(409, { status: 'settingsChanged', message: 'Reload' }), inForce, {})).toEqual({
      form: { text: 'Reload' },
    });
    expect(settingsErrors(new Error('offline'), inForce, {})).toEqual({ form: { key: 'invalid' } });
  });

  it('says a text setting must stay on one line', () => {
    const error = refusal({ path: 'bitcoinAddress', message: 'Line breaks...' });
    expect(settingsErrors(error, inForce, { bitcoinAddress: 'bc1q\nabc' })).toEqual({
      bitcoinAddress: { key: 'singleLine' },
    });
  });
});
