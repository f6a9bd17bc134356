export * from './format.ts';
export * from './money.ts';
export * from './roles.ts';
