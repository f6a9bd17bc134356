import { describe, expect, it } from 'vitest';
import { checkRequest, ZUpdateNetworkSettingsRequestSchema, type TNetworkSettings } from '@helium/contracts';
import { ApiError } from '../../../api/client.ts';
import { errorsByField, refusalIssues } from '../../forms/utils/issues.ts';
import { acrossFieldsIssue, hasChanges, settingsFieldOf, settingsToSave, unitOf } from './settingsForm.ts';

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

  it('sends an emptied number empty, so that it is refused as required, never quietly kept', () => {
    const request = settingsToSave(shown, { usdToEur: '', btcToEur: 60000 });
    expect(request).toEqual({ usdToEur: null, expectedId: 4 });
    const checked = checkRequest(ZUpdateNetworkSettingsRequestSchema, request);
    expect(checked.success ? null : errorsByField(checked.issues, settingsFieldOf).fields).toEqual({
      usdToEur: expect.objectContaining({ key: 'required' }),
    });
  });

  it('sees no change when nothing changed', () => {
    expect(hasChanges(settingsToSave(shown, { usdToEur: 0.92, btcToEur: 60000 }))).toBe(false);
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

describe('checks before sending', () => {
  const inForce = {
    ...shown,
    publisherRevenueSharePct: 70,
    salesRepRevenueSharePct: 10,
    discountThreshold1Pct: 25,
    discountThreshold2Pct: 50,
    discountThreshold3Pct: 100,
  } as TNetworkSettings;
  const fieldsRefused = (draft: Record<string, unknown>) => {
    const checked = checkRequest(ZUpdateNetworkSettingsRequestSchema, settingsToSave(inForce, draft));
    return checked.success ? {} : errorsByField(checked.issues, settingsFieldOf).fields;
  };

  it('refuses each number from the rule it breaks, beside its field, with the limit', () => {
    expect(fieldsRefused({ btcToEur: 0.001, usdToEur: 0.001, statsDaysAveraged: 1.5 })).toEqual({
      btcToEur: expect.objectContaining({ key: 'decimals', values: { decimals: 2 } }),
      usdToEur: expect.objectContaining({ key: 'atLeast', values: { min: 0.01 } }),
      statsDaysAveraged: expect.objectContaining({ key: 'wholeNumber' }),
    });
  });

  it('refuses a text over its length and one that leaves its line', () => {
    expect(fieldsRefused({ sellerDetails: 'x'.repeat(1001), bitcoinAddress: 'bc1q\nabc' })).toEqual({
      sellerDetails: expect.objectContaining({ key: 'tooLong', values: { max: 1000, typed: 1001 } }),
      bitcoinAddress: expect.objectContaining({ key: 'singleLine' }),
    });
  });

  it('names the field of a rule across fields, from the settings merged', () => {
    expect(acrossFieldsIssue(inForce, { salesRepRevenueSharePct: 40, expectedId: 4 })).toMatchObject({
      path: 'salesRepRevenueSharePct',
      key: 'sharesAbove100',
    });
    expect(acrossFieldsIssue(inForce, { salesRepRevenueSharePct: 20, expectedId: 4 })).toBe(null);
  });

  it("places the server's issues on their fields, and the rest on the form", () => {
    const error = new ApiError(422, {
      status: 'invalidSettings',
      message: 'x',
      issues: [
        { path: 'salesRepRevenueSharePct', message: 'x', key: 'sharesAbove100' },
        { path: '', message: 'Send at least one setting', key: 'invalid' },
      ],
    });
    expect(errorsByField(refusalIssues(error)!, settingsFieldOf)).toEqual({
      fields: { salesRepRevenueSharePct: expect.objectContaining({ key: 'sharesAbove100' }) },
      form: expect.objectContaining({ path: '' }),
    });
    expect(refusalIssues(new ApiError(409, { status: 'settingsChanged', message: 'Reload' }))).toBe(null);
  });
});
