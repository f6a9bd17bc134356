import { decimalPlaces } from './decimals.ts';

/*
 * The numbers of the network settings (issue 24 part 4, issue 32): each is stored at a precision (a NUMERIC scale,
 * micro-euros, basis points, a whole number), and a value is taken only when it is stored exactly as typed and
 * within its range. The contract checks a request with these rules, the server checks every stored row with them
 * (a row that breaks one is never used), and the admin screen words its refusals from them.
 */

/** How a setting's number is stored and the values it may take (bounds included, in the unit the admin types). */
export interface SettingNumberRule {
  /** Decimals it is stored with: 8 for usd_to_eur NUMERIC(18,8), 6 for micro-euros, 2 for basis points... */
  decimals: number;
  min: number;
  max: number;
}

/** Percents stored as basis points. */
const PERCENT: SettingNumberRule = { decimals: 2, min: 0, max: 100 };
/** Euros stored as micro-euros. */
const EUROS: SettingNumberRule = { decimals: 6, min: 0, max: 1_000_000_000 };
const COUNT: SettingNumberRule = { decimals: 0, min: 0, max: 1_000_000_000 };

/**
 * The rules of each number. The rates' ranges hold every real rate with room to spare (a dollar has been worth
 * 0.8 to 1.6 euros, a bitcoin more than 100 euros since 2013) and keep the pico-bitcoins of any purchase up to
 * 900,000 euros a safe integer (docs/decisions.md, "Network settings").
 */
export const NETWORK_SETTING_NUMBER_RULES = {
  /** Euros per dollar: usd_to_eur NUMERIC(18,8). */
  usdToEur: { decimals: 8, min: 0.01, max: 100 },
  /** Euros per bitcoin: btc_to_eur NUMERIC(18,2). */
  btcToEur: { decimals: 2, min: 100, max: 1_000_000_000 },
  publisherRevenueSharePct: PERCENT,
  salesRepRevenueSharePct: PERCENT,
  minImpressionsToAutoPilot: COUNT,
  minImpressionsForCtrRank: COUNT,
  minBalanceForPayout: EUROS,
  transferFeePaypal: EUROS,
  transferFeeWire: EUROS,
  billToPayMinOrder: EUROS,
  discountThreshold1Pct: PERCENT,
  discountThreshold2Pct: PERCENT,
  discountThreshold3Pct: PERCENT,
  discountAmount1Pct: PERCENT,
  discountAmount2Pct: PERCENT,
  discountAmount3Pct: PERCENT,
  extraDiscountForBtcPct: PERCENT,
  extraDiscountForUsdPct: PERCENT,
  vatPct: PERCENT,
  statsDaysAveraged: { decimals: 0, min: 1, max: 365 },
} as const satisfies Record<string, SettingNumberRule>;

export type NumberSettingName = keyof typeof NETWORK_SETTING_NUMBER_RULES;

export type SettingNumberProblem = 'notANumber' | 'tooManyDecimals' | 'belowMin' | 'aboveMax';

/** Why a value cannot be stored under a rule (null: it can, exactly). */
export function settingNumberProblem(value: number, rule: SettingNumberRule): SettingNumberProblem | null {
  if (!Number.isFinite(value)) return 'notANumber';
  if (decimalPlaces(value) > rule.decimals) return 'tooManyDecimals';
  if (value < rule.min) return 'belowMin';
  if (value > rule.max) return 'aboveMax';
  return null;
}

/** The rules across settings, once a change is merged with the settings in force. */
export type SettingsRuleProblem = 'sharesAbove100' | 'thresholdsNotAscending';

export interface SettingsAcrossFields {
  publisherRevenueSharePct: number;
  salesRepRevenueSharePct: number;
  discountThreshold1Pct: number;
  discountThreshold2Pct: number;
  discountThreshold3Pct: number;
}

/** Percents of at most 2 decimals compared in basis points (70.3 + 29.7 is not above 100). */
const bp = (pct: number) => Math.round(pct * 100);

/** The first rule across fields the settings break, with the field it is reported on; null when none. */
export function settingsAcrossFieldsProblem(
  settings: SettingsAcrossFields,
): { field: keyof SettingsAcrossFields; problem: SettingsRuleProblem } | null {
  if (bp(settings.publisherRevenueSharePct) + bp(settings.salesRepRevenueSharePct) > 10_000) {
    return { field: 'salesRepRevenueSharePct', problem: 'sharesAbove100' };
  }
  const [tier1, tier2, tier3] = [
    bp(settings.discountThreshold1Pct),
    bp(settings.discountThreshold2Pct),
    bp(settings.discountThreshold3Pct),
  ];
  if (tier1 > tier2 || tier2 > tier3) {
    return { field: 'discountThreshold2Pct', problem: 'thresholdsNotAscending' };
  }
  return null;
}
