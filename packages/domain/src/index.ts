export * from './format.ts';
export * from './money.ts';
export * from './time.ts';
export * from './roles.ts';
export * from './ads.ts';
export * from './revenue.ts';
export * from './pricing.ts';
export * from './delivery/index.ts';
