export * from './client.ts';
export * from './schema/index.ts';
export { seedDemoData, isDatabaseEmpty } from './seed/index.ts';
