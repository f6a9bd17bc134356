export * from './users.ts';
export * from './accounts.ts';
export * from './settings.ts';
export * from './audit.ts';
export * from './ads.ts';
export * from './delivery.ts';
export * from './campaign-activity.ts';
export * from './billing.ts';
