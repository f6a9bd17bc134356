/** @fastify/rate-limit's Redis store, which its package ships without a declaration (infra/rate-limiter.ts). */
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { Redis } from 'ioredis';

  type StoreAnswer = (error: Error | null, result?: { current: number; ttl: number }) => void;

  export default class RedisStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, keyPrefix?: string);
    incr(key: string, answer: StoreAnswer, windowMs: number, max: number): void;
    read(key: string, answer: StoreAnswer, windowMs: number, max: number): void;
    child(): RedisStore;
  }
}
