export * from './client.ts';
export { FolderInUseError } from './folder-lock.ts';
export * from './schema/index.ts';
export { seedDemoData, isDatabaseEmpty } from './seed/index.ts';
