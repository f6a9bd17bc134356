import { desc, lte } from 'drizzle-orm';
import { networkSettings, type Database } from '@helium/db';
import { microsToEuros, settingsAcrossFieldsProblem } from '@helium/domain';
import { ZNetworkSettingsFieldsSchema, type TNetworkSettingName, type TNetworkSettingsFields } from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';

export type NetworkSettings = typeof networkSettings.$inferSelect;

const pctOf = (bp: number) => bp / 100;

/** The fields of a row as the screen shows them: euros, percents, rates as numbers. */
export function settingsFields(row: NetworkSettings): TNetworkSettingsFields {
  return {
    usdToEur: Number(row.usdToEur),
    btcToEur: Number(row.btcToEur),
    publisherRevenueSharePct: pctOf(row.publisherRevenueShareBp),
    salesRepRevenueSharePct: pctOf(row.salesRepRevenueShareBp),
    minImpressionsToAutoPilot: row.minImpressionsToAutoPilot,
    minImpressionsForCtrRank: row.minImpressionsForCtrRank,
    minBalanceForPayout: microsToEuros(row.minBalanceForPayout),
    transferFeePaypal: microsToEuros(row.transferFeePaypalEur),
    transferFeeWire: microsToEuros(row.transferFeeWireEur),
    billToPayMinOrder: microsToEuros(row.billToPayMinOrder),
    discountThreshold1Pct: pctOf(row.discountThreshold1Bp),
    discountThreshold2Pct: pctOf(row.discountThreshold2Bp),
    discountThreshold3Pct: pctOf(row.discountThreshold3Bp),
    discountAmount1Pct: pctOf(row.discountAmount1Bp),
    discountAmount2Pct: pctOf(row.discountAmount2Bp),
    discountAmount3Pct: pctOf(row.discountAmount3Bp),
    extraDiscountForBtcPct: pctOf(row.extraDiscountForBtcBp),
    extraDiscountForUsdPct: pctOf(row.extraDiscountForUsdBp),
    vatPct: pctOf(row.vatBp),
    statsDaysAveraged: row.statsDaysAveraged,
    bitcoinAddress: row.bitcoinAddress,
    sellerDetails: row.sellerDetails,
    bankDetails: row.bankDetails,
    latePaymentAction: row.latePaymentAction,
  };
}

/**
 * The fields of a stored row that break a rule: each field's own (the contract's, as for a change) and those
 * across fields. A row with any is never in force: it was written before the rules, or by hand.
 */
export function invalidSettingsFields(row: NetworkSettings): TNetworkSettingName[] {
  const fields = settingsFields(row);
  const parsed = ZNetworkSettingsFieldsSchema.safeParse(fields);
  const invalid = new Set<TNetworkSettingName>(
    parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0] as TNetworkSettingName),
  );
  const across = settingsAcrossFieldsProblem(fields);
  if (across) invalid.add(across.field);
  return [...invalid];
}

/** Rows read at a time while looking for the latest usable one (normally the first is). */
const ROWS_PER_READ = 10;

/** The latest row that breaks no rule, among those written by `at` when given; null when there is none. */
export async function latestValidNetworkSettings(db: Database, at?: Date): Promise<NetworkSettings | null> {
  for (let offset = 0; ; offset += ROWS_PER_READ) {
    const rows = await db
      .select()
      .from(networkSettings)
      .where(at ? lte(networkSettings.createdAt, at) : undefined)
      .orderBy(desc(networkSettings.id))
      .limit(ROWS_PER_READ)
      .offset(offset);
    const valid = rows.find((row) => invalidSettingsFields(row).length === 0);
    if (valid) return valid;
    if (rows.length < ROWS_PER_READ) return null;
  }
}

/**
 * The network settings in force: the latest row that breaks no rule (settings are append-only, each change a
 * new row; a row that breaks one, written before the rules or by hand, is passed over). The demo seed and every
 * installation write one; without it nothing can be priced or paid (503).
 */
export async function latestNetworkSettings(db: Database): Promise<NetworkSettings> {
  const row = await latestValidNetworkSettings(db);
  if (!row) throw new HttpError(503, 'noNetworkSettings', 'The network settings are missing.');
  return row;
}
