export * from './common.ts';
export * from './auth.ts';
export * from './admin.ts';
export * from './ads.ts';
export * from './campaign.ts';
export * from './installation.ts';
export * from './performance.ts';
export * from './serving.ts';
