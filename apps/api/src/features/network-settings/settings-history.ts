import { desc, eq, sql } from 'drizzle-orm';
import { auditLog, networkSettings, users, type Database } from '@helium/db';
import { eurosToMicros, formatDateTime, microsToEuros, type Locale } from '@helium/domain';
import {
  NETWORK_SETTING_NAMES,
  type TNetworkSettingName,
  type TNetworkSettings,
  type TNetworkSettingsFields,
  type TUpdateNetworkSettingsRequest,
} from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { latestNetworkSettings, type NetworkSettings } from './network-settings.ts';

/*
 * The admin's network settings (issue 24, part 4): append-only rows, the latest in force. An update is one new row
 * (the latest with the fields sent), written with its audit row in one transaction that holds the table's lock, so
 * two admins' changes never overwrite each other's fields.
 */

/** How many rows of history the screen shows. */
export const SETTINGS_HISTORY_ROWS = 50;

type Row = NetworkSettings;
type Insert = typeof networkSettings.$inferInsert;

const pctOf = (bp: number) => bp / 100;
const bpOf = (pct: number) => Math.round(pct * 100);

/** The fields of a row as the screen shows them: euros, percents, rates as numbers. */
export function settingsFields(row: Row): TNetworkSettingsFields {
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

/** The columns of the fields sent (only those). */
function columnsOf(fields: Partial<TNetworkSettingsFields>): Partial<Insert> {
  const columns: Partial<Insert> = {};
  const set = <K extends keyof Insert>(key: K, value: Insert[K] | undefined) => {
    if (value !== undefined) columns[key] = value;
  };
  const micros = (euros: number | undefined) => (euros === undefined ? undefined : eurosToMicros(euros));
  const bp = (pct: number | undefined) => (pct === undefined ? undefined : bpOf(pct));
  set('usdToEur', fields.usdToEur === undefined ? undefined : fields.usdToEur.toFixed(8));
  set('btcToEur', fields.btcToEur === undefined ? undefined : fields.btcToEur.toFixed(2));
  set('publisherRevenueShareBp', bp(fields.publisherRevenueSharePct));
  set('salesRepRevenueShareBp', bp(fields.salesRepRevenueSharePct));
  set('minImpressionsToAutoPilot', fields.minImpressionsToAutoPilot);
  set('minImpressionsForCtrRank', fields.minImpressionsForCtrRank);
  set('minBalanceForPayout', micros(fields.minBalanceForPayout));
  set('transferFeePaypalEur', micros(fields.transferFeePaypal));
  set('transferFeeWireEur', micros(fields.transferFeeWire));
  set('billToPayMinOrder', micros(fields.billToPayMinOrder));
  set('discountThreshold1Bp', bp(fields.discountThreshold1Pct));
  set('discountThreshold2Bp', bp(fields.discountThreshold2Pct));
  set('discountThreshold3Bp', bp(fields.discountThreshold3Pct));
  set('discountAmount1Bp', bp(fields.discountAmount1Pct));
  set('discountAmount2Bp', bp(fields.discountAmount2Pct));
  set('discountAmount3Bp', bp(fields.discountAmount3Pct));
  set('extraDiscountForBtcBp', bp(fields.extraDiscountForBtcPct));
  set('extraDiscountForUsdBp', bp(fields.extraDiscountForUsdPct));
  set('vatBp', bp(fields.vatPct));
  set('statsDaysAveraged', fields.statsDaysAveraged);
  set('bitcoinAddress', fields.bitcoinAddress);
  set('sellerDetails', fields.sellerDetails);
  set('bankDetails', fields.bankDetails);
  set('latePaymentAction', fields.latePaymentAction);
  return columns;
}

/** The fields whose values differ between two rows (a rate compared as stored). */
export function changedFields(before: Row | undefined, after: Row): TNetworkSettingName[] {
  if (!before) return [];
  const a = settingsFields(before);
  const b = settingsFields(after);
  return NETWORK_SETTING_NAMES.filter((name) => a[name] !== b[name]);
}

/** Rules across fields, once merged with the settings in force: a 422 naming the first at fault. */
function settingsProblem(fields: TNetworkSettingsFields): { field: string; message: string } | null {
  if (fields.publisherRevenueSharePct + fields.salesRepRevenueSharePct > 100) {
    return {
      field: 'salesRepRevenueSharePct',
      message: 'The publisher and sales-rep shares together cannot be above 100 %.',
    };
  }
  if (
    fields.discountThreshold1Pct > fields.discountThreshold2Pct ||
    fields.discountThreshold2Pct > fields.discountThreshold3Pct
  ) {
    return { field: 'discountThreshold2Pct', message: 'The discount thresholds must go up from tier 1 to tier 3.' };
  }
  return null;
}

const invalid = (problem: { field: string; message: string }) =>
  new HttpError(422, 'invalidSettings', `${problem.field}: ${problem.message}`);

/** A row as the screen shows it, with who wrote it and what it changed from the row before. */
export function settingsView(
  row: Row,
  before: Row | undefined,
  createdBy: string | null,
  locale: Locale,
): TNetworkSettings {
  return {
    ...settingsFields(row),
    id: row.id,
    ratesSetAt: row.ratesSetAt.toISOString(),
    ratesSetAtStr: formatDateTime(row.ratesSetAt, locale),
    createdAtStr: formatDateTime(row.createdAt, locale),
    createdBy,
    changed: changedFields(before, row),
  };
}

/** The settings in force and the history, newest first. */
export async function networkSettingsHistory(db: Database, locale: Locale) {
  const rows = await db
    .select({ row: networkSettings, email: users.email })
    .from(networkSettings)
    .leftJoin(users, eq(users.id, networkSettings.createdBy))
    .orderBy(desc(networkSettings.id))
    .limit(SETTINGS_HISTORY_ROWS + 1);
  if (rows.length === 0) await latestNetworkSettings(db); // the 503 of a database without settings
  const history = rows
    .slice(0, SETTINGS_HISTORY_ROWS)
    .map((entry, index) => settingsView(entry.row, rows[index + 1]?.row, entry.email, locale));
  return { settings: history[0]!, history };
}

export interface SettingsAuthor {
  userId: number;
  ip: string | null;
  now: Date;
}

/**
 * Writes the settings sent as a new row (the others as in force), with its audit row (each field's old and new
 * value), in one transaction. The rates' date moves only when a rate changes. Nothing is written when the result
 * breaks a rule (422) or the settings changed since `expectedId` (409); a change of nothing writes nothing either.
 */
export async function updateNetworkSettings(
  db: Database,
  request: TUpdateNetworkSettingsRequest,
  author: SettingsAuthor,
): Promise<{ row: Row; before: Row; changed: TNetworkSettingName[] }> {
  const { expectedId, ...fields } = request;
  return db.transaction(async (tx) => {
    // Readers go on; a second writer waits here and then reads the row this one wrote.
    await tx.execute(sql`LOCK TABLE network_settings IN EXCLUSIVE MODE`);
    const before = await latestNetworkSettings(tx as unknown as Database);
    if (expectedId !== undefined && expectedId !== before.id) {
      throw new HttpError(409, 'settingsChanged', 'The settings were changed meanwhile: reload them and try again.');
    }
    const merged = { ...settingsFields(before), ...fields };
    const problem = settingsProblem(merged);
    if (problem) throw invalid(problem);
    const { id: _id, createdAt: _createdAt, createdBy: _createdBy, ...kept } = before;
    const next: Insert = { ...kept, ...columnsOf(fields), createdAt: author.now, createdBy: author.userId };
    const ratesChanged =
      Number(next.usdToEur) !== Number(before.usdToEur) || Number(next.btcToEur) !== Number(before.btcToEur);
    next.ratesSetAt = ratesChanged ? author.now : before.ratesSetAt;
    const candidate = { ...before, ...next } as Row;
    const changed = changedFields(before, candidate);
    if (changed.length === 0) return { row: before, before, changed };
    const [row] = await tx.insert(networkSettings).values(next).returning();
    const a = settingsFields(before);
    const b = settingsFields(row!);
    await tx.insert(auditLog).values({
      actorUserId: author.userId,
      action: 'networkSettings.update',
      targetType: 'network_settings',
      targetId: row!.id,
      details: { changes: Object.fromEntries(changed.map((name) => [name, { from: a[name], to: b[name] }])) },
      ip: author.ip,
      createdAt: author.now,
    });
    return { row: row!, before, changed };
  });
}
