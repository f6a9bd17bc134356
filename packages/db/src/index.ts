export * from './client.ts';
export { isDatabaseUnreachable, mayHaveCommitted, NotWrittenError, refusedByDatabase } from './connection-errors.ts';
export { FolderInUseError } from './folder-lock.ts';
export { FREEZE_AFTER_TRANSACTIONS, maintainEmbeddedDatabase, type MaintenanceResult } from './maintenance.ts';
export * from './schema/index.ts';
export { seedDemoData, isDatabaseEmpty } from './seed/index.ts';
export {
  BackupError,
  dumpEmbeddedDatabase,
  dumpPostgresDatabase,
  hasEmbeddedDatabase,
  loadEmbeddedDatabase,
  postgresTables,
  restorePostgresDatabase,
} from './backup.ts';
export { createThrowAwayDatabase, retryWhileInUse, type ThrowAwayDatabase } from './throw-away-database.ts';
