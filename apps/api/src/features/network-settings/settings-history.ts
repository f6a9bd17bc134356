import { desc, eq, sql } from 'drizzle-orm';
import { auditLog, networkSettings, users, type Database } from '@helium/db';
import {
  decimalUnits,
  formatDateTime,
  NETWORK_SETTING_NUMBER_RULES,
  scaledDecimal,
  settingsAcrossFieldsProblem,
  type Locale,
  type SettingsRuleProblem,
} from '@helium/domain';
import {
  NETWORK_SETTING_NAMES,
  type TNetworkSettingName,
  type TNetworkSettings,
  type TNetworkSettingsFields,
  type TIssueKey,
  type TUpdateNetworkSettingsRequest,
} from '@helium/contracts';
import { fieldRefusal, HttpError } from '../../http/errors.ts';
import {
  invalidSettingsFields,
  latestNetworkSettings,
  settingsFields,
  type NetworkSettings,
} from './network-settings.ts';

/*
 * The admin's network settings (issue 24, part 4): append-only rows, the latest in force. An update is one new row
 * (the latest with the fields sent), written with its audit row in one transaction that holds the table's lock, so
 * two admins' changes never overwrite each other's fields.
 */

/** How many rows of history the screen shows. */
export const SETTINGS_HISTORY_ROWS = 50;

type Row = NetworkSettings;
type Insert = typeof networkSettings.$inferInsert;

const RULES = NETWORK_SETTING_NUMBER_RULES;

/** The columns of the fields sent (only those). */
function columnsOf(fields: Partial<TNetworkSettingsFields>): Partial<Insert> {
  const columns: Partial<Insert> = {};
  const set = <K extends keyof Insert>(key: K, value: Insert[K] | undefined) => {
    if (value !== undefined) columns[key] = value;
  };
  // Exact: the contract took only values with no more decimals than stored (decimals.ts scales their text).
  const micros = (euros: number | undefined) =>
    euros === undefined ? undefined : decimalUnits(euros, RULES.minBalanceForPayout.decimals);
  const bp = (pct: number | undefined) => (pct === undefined ? undefined : decimalUnits(pct, RULES.vatPct.decimals));
  const rate = (value: number | undefined, scale: number) =>
    value === undefined ? undefined : scaledDecimal(value, scale);
  set('usdToEur', rate(fields.usdToEur, RULES.usdToEur.decimals));
  set('btcToEur', rate(fields.btcToEur, RULES.btcToEur.decimals));
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

const ACROSS_FIELDS_MESSAGES: Record<SettingsRuleProblem, string> = {
  sharesAbove100: 'The publisher and sales-rep shares together cannot be above 100 %.',
  thresholdsNotAscending: 'The discount thresholds must go up from tier 1 to tier 3.',
};

/** A 422 naming the field at fault, shaped as the contract's own refusals (`issues`), so the screen shows it there. */
const invalid = (field: string, message: string, key: TIssueKey) =>
  fieldRefusal(422, 'invalidSettings', `${field}: ${message}`, { path: field, key });

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
    invalidFields: invalidSettingsFields(row),
  };
}

/**
 * The settings in force and the history, newest first. A row that breaks a rule shows in the history with its
 * fields at fault named, and is never the one in force.
 */
export async function networkSettingsHistory(db: Database, locale: Locale) {
  const rows = await db
    .select({ row: networkSettings, email: users.email })
    .from(networkSettings)
    .leftJoin(users, eq(users.id, networkSettings.createdBy))
    .orderBy(desc(networkSettings.id))
    .limit(SETTINGS_HISTORY_ROWS + 1);
  const usable = rows.map((entry) => invalidSettingsFields(entry.row).length === 0);
  // What a row changed is read against the row in force before it: the next older one that breaks no rule.
  const before = (index: number) => {
    const older = usable.findIndex((isUsable, olderIndex) => isUsable && olderIndex > index);
    return rows[older >= 0 ? older : index + 1]?.row;
  };
  const history = rows
    .slice(0, SETTINGS_HISTORY_ROWS)
    .map((entry, index) => settingsView(entry.row, before(index), entry.email, locale));
  const inForce = history.find((row) => row.invalidFields.length === 0);
  if (inForce) return { settings: inForce, history };
  // Beyond the rows shown (or none: the 503 of a database without settings).
  const row = await latestNetworkSettings(db);
  const [author] = row.createdBy
    ? await db.select({ email: users.email }).from(users).where(eq(users.id, row.createdBy))
    : [];
  return { settings: settingsView(row, undefined, author?.email ?? null, locale), history };
}

export interface SettingsAuthor {
  userId: number;
  ip: string | null;
  now: Date;
}

/**
 * Writes the settings sent as a new row (the others as in force), with its audit row (each field's old and new
 * value), in one transaction. The rates' date moves only when a rate changes. Nothing is written when the result
 * breaks a rule (422 naming the field) or the settings changed since `expectedId` (409); a change of nothing
 * writes nothing either. The values are stored exactly as sent: decimal text for the rates, integer units for
 * euros and percents, never a float rounded on the way.
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
    const problem = settingsAcrossFieldsProblem({ ...settingsFields(before), ...fields });
    if (problem) throw invalid(problem.field, ACROSS_FIELDS_MESSAGES[problem.problem], problem.problem);
    const { id: _id, createdAt: _createdAt, createdBy: _createdBy, ...kept } = before;
    const next: Insert = { ...kept, ...columnsOf(fields), createdAt: author.now, createdBy: author.userId };
    const ratesChanged =
      Number(next.usdToEur) !== Number(before.usdToEur) || Number(next.btcToEur) !== Number(before.btcToEur);
    next.ratesSetAt = ratesChanged ? author.now : before.ratesSetAt;
    const candidate = { ...before, ...next } as Row;
    // The row as it will be stored passes every rule, or nothing is written.
    const [atFault] = invalidSettingsFields(candidate);
    if (atFault) throw invalid(atFault, 'This value cannot be stored exactly.', 'invalid');
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
