export * from './random.ts';
export * from './eligibility.ts';
export * from './selection.ts';
export * from './ctr.ts';
export * from './shares.ts';
export * from './traffic-model.ts';
export * from './placements.ts';
export * from './addresses.ts';
