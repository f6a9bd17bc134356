import {
  NETWORK_SETTING_NAMES,
  type TNetworkSettings,
  type TNetworkSettingName,
  type TUpdateNetworkSettingsRequest,
} from '@helium/contracts';
import {
  NETWORK_SETTING_NUMBER_RULES,
  settingNumberProblem,
  settingsAcrossFieldsProblem,
  type NumberSettingName,
} from '@helium/domain/network-settings';
import { isSingleLineText } from '@helium/domain/text';
import { ApiError } from '../../../api/client.ts';

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

/** Why a field was refused, as the screen words it: a key of `networkSettings.errors` with its values, or the server's text. */
export type SettingError = { key: SettingErrorKey; values?: Record<string, number> } | { text: string };

export type SettingErrorKey =
  | 'tooManyDecimals'
  | 'wholeNumber'
  | 'belowMin'
  | 'aboveMax'
  | 'sharesAbove100'
  | 'thresholdsNotAscending'
  | 'singleLine'
  | 'invalid';

/** The refusal of a save, field by field; `form` for what names no field. */
export type SettingsErrors = Partial<Record<TNetworkSettingName | 'form', SettingError>>;

const isNumberSetting = (field: string): field is NumberSettingName => field in NETWORK_SETTING_NUMBER_RULES;

/** The reason a field's value was refused, found again from the rules the server applied (packages/domain). */
function reasonOf(field: TNetworkSettingName, merged: Record<string, unknown>, serverText: string): SettingError {
  const value = merged[field];
  if (isNumberSetting(field) && typeof value === 'number') {
    const rule = NETWORK_SETTING_NUMBER_RULES[field];
    switch (settingNumberProblem(value, rule)) {
      case 'tooManyDecimals':
        return rule.decimals === 0
          ? { key: 'wholeNumber' }
          : { key: 'tooManyDecimals', values: { decimals: rule.decimals } };
      case 'belowMin':
        return { key: 'belowMin', values: { min: rule.min } };
      case 'aboveMax':
        return { key: 'aboveMax', values: { max: rule.max } };
      default:
        break;
    }
    const across = settingsAcrossFieldsProblem(merged as unknown as Parameters<typeof settingsAcrossFieldsProblem>[0]);
    if (across?.field === field) return { key: across.problem };
  }
  if (typeof value === 'string' && !isSingleLineText(value)) return { key: 'singleLine' };
  return serverText ? { text: serverText } : { key: 'invalid' };
}

/**
 * The server's refusal of a save (a 422 whose `issues` name the fields, the contract's or a rule's across fields),
 * field by field, worded from the same rules; anything else is the form's.
 */
export function settingsErrors(
  error: unknown,
  shown: TNetworkSettings,
  request: TUpdateNetworkSettingsRequest,
): SettingsErrors {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null)
    return { form: { key: 'invalid' } };
  const body = error.body as { message?: unknown; issues?: unknown };
  const merged: Record<string, unknown> = { ...shown, ...request };
  const errors: SettingsErrors = {};
  const issues = Array.isArray(body.issues) ? (body.issues as Array<{ path?: unknown; message?: unknown }>) : [];
  for (const issue of issues) {
    const field = NETWORK_SETTING_NAMES.find((name) => name === issue.path);
    const text = typeof issue.message === 'string' ? issue.message : '';
    if (field && !errors[field]) errors[field] = reasonOf(field, merged, text);
    else if (!field && !errors.form) errors.form = text ? { text } : { key: 'invalid' };
  }
  if (Object.keys(errors).length === 0) {
    errors.form = typeof body.message === 'string' && body.message ? { text: body.message } : { key: 'invalid' };
  }
  return errors;
}
