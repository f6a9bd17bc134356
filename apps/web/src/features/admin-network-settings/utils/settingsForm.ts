import {
  NETWORK_SETTING_NAMES,
  type TNetworkSettings,
  type TNetworkSettingName,
  type TUpdateNetworkSettingsRequest,
} from '@helium/contracts';

export type SettingGroup = 'rates' | 'shares' | 'delivery' | 'payouts' | 'billing' | 'documents';

/** The settings' fields in the screen's groups, in order. */
export const SETTING_GROUPS: ReadonlyArray<{ key: SettingGroup; fields: readonly TNetworkSettingName[] }> = [
  { key: 'rates', fields: ['usdToEur', 'btcToEur'] },
  { key: 'shares', fields: ['publisherRevenueSharePct', 'salesRepRevenueSharePct'] },
  { key: 'delivery', fields: ['minImpressionsToAutoPilot', 'minImpressionsForCtrRank', 'statsDaysAveraged'] },
  { key: 'payouts', fields: ['minBalanceForPayout', 'transferFeePaypal', 'transferFeeWire'] },
  {
    key: 'billing',
    fields: [
      'billToPayMinOrder',
      'discountThreshold1Pct',
      'discountAmount1Pct',
      'discountThreshold2Pct',
      'discountAmount2Pct',
      'discountThreshold3Pct',
      'discountAmount3Pct',
      'extraDiscountForBtcPct',
      'extraDiscountForUsdPct',
      'vatPct',
      'latePaymentAction',
    ],
  },
  { key: 'documents', fields: ['bitcoinAddress', 'sellerDetails', 'bankDetails'] },
];

/** Fields typed as text (the others are numbers). */
export const TEXT_SETTINGS: ReadonlySet<TNetworkSettingName> = new Set([
  'bitcoinAddress',
  'sellerDetails',
  'bankDetails',
]);

/** Fields chosen from a list, sent as text: what to do with a payment for a cancelled sale. */
export const CHOICE_SETTINGS: ReadonlySet<TNetworkSettingName> = new Set(['latePaymentAction']);

/** Number fields that take whole numbers only. */
export const WHOLE_SETTINGS: ReadonlySet<TNetworkSettingName> = new Set([
  'minImpressionsToAutoPilot',
  'minImpressionsForCtrRank',
  'statsDaysAveraged',
]);

/** What a field is measured in, for its label: euros, percent, or nothing. */
export function unitOf(field: TNetworkSettingName): 'eur' | 'pct' | 'rate' | null {
  if (field.endsWith('Pct')) return 'pct';
  if (field === 'usdToEur' || field === 'btcToEur') return 'rate';
  if (['minBalanceForPayout', 'transferFeePaypal', 'transferFeeWire', 'billToPayMinOrder'].includes(field))
    return 'eur';
  return null;
}

export type SettingsDraft = Partial<Record<TNetworkSettingName, string | number>>;

/**
 * The request of a save: only the fields that differ from the settings shown (an emptied number field is left out,
 * the server keeps its value), with the id of the settings shown so that another admin's change is not overwritten.
 */
export function settingsToSave(shown: TNetworkSettings, draft: SettingsDraft): TUpdateNetworkSettingsRequest {
  const request: Record<string, unknown> = {};
  for (const field of NETWORK_SETTING_NAMES) {
    const value = draft[field];
    if (value === undefined) continue;
    if (TEXT_SETTINGS.has(field) || CHOICE_SETTINGS.has(field)) {
      if (typeof value === 'string' && value.trim() !== String(shown[field]).trim()) request[field] = value.trim();
      continue;
    }
    if (value === '') continue;
    const number = typeof value === 'number' ? value : Number(String(value).replace(',', '.'));
    if (number !== shown[field]) request[field] = number;
  }
  return { ...request, expectedId: shown.id } as TUpdateNetworkSettingsRequest;
}

/** Whether a save request holds any setting. */
export const hasChanges = (request: TUpdateNetworkSettingsRequest) =>
  Object.keys(request).some((key) => key !== 'expectedId');
