import { MONEY_AUDIT_CHECKS, type MoneyAuditCheckName, type TMoneyAuditRow } from '@helium/contracts';

/** A check's name as the catalogues know it, or null for a name this screen does not know (an older run's). */
export function knownCheck(name: string): MoneyAuditCheckName | null {
  return (MONEY_AUDIT_CHECKS as readonly string[]).includes(name) ? (name as MoneyAuditCheckName) : null;
}

/** The columns of a check's rows, in the order the check wrote them (the first row's, then any others'). */
export function rowColumns(rows: readonly TMoneyAuditRow[]): string[] {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  return columns;
}
