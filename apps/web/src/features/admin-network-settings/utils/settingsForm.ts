import {
  NETWORK_SETTING_NAMES,
  type TIssue,
  type TNetworkSettings,
  type TNetworkSettingName,
  type TUpdateNetworkSettingsRequest,
} from '@helium/contracts';
import { settingsAcrossFieldsProblem } from '@helium/domain/network-settings';
import { topLevelField } from '../../forms/utils/issues.ts';
import { typedNumber } from '../../forms/utils/typedNumber.ts';

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
 * The request of a save: only the fields that differ from the settings shown (an emptied number field is sent
 * empty, so that it is refused as required, never quietly kept), with the id of the settings shown so that another
 * admin's change is not overwritten.
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
    const number = typedNumber(value);
    if (number === undefined) request[field] = null;
    else if (number !== shown[field]) request[field] = number;
  }
  return { ...request, expectedId: shown.id } as TUpdateNetworkSettingsRequest;
}

/** Whether a save request holds any setting. */
export const hasChanges = (request: TUpdateNetworkSettingsRequest) =>
  Object.keys(request).some((key) => key !== 'expectedId');

/** The fields of the form, as the update call's issues name them. */
export const settingsFieldOf = topLevelField(NETWORK_SETTING_NAMES);

/**
 * A rule across fields the screen checks before sending, as the server does, on the settings as they would be:
 * the shares together at most 100 %, the discount thresholds going up. Null when none is broken.
 */
export function acrossFieldsIssue(shown: TNetworkSettings, request: TUpdateNetworkSettingsRequest): TIssue | null {
  const merged = { ...shown, ...request } as Parameters<typeof settingsAcrossFieldsProblem>[0];
  const problem = settingsAcrossFieldsProblem(merged);
  return problem ? { path: problem.field, message: problem.problem, key: problem.problem } : null;
}
