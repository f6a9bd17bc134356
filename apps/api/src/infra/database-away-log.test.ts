import { describe, expect, it } from 'vitest';
import { DatabaseAwayLog } from './database-away-log.ts';

const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('DatabaseAwayLog', () => {
  it('says the database is unreachable once a minute per topic, and every other error each time', () => {
    let now = 0;
    const log = new DatabaseAwayLog(() => now);
    expect(log.shouldLog(unreachable, 'events')).toBe(true);
    expect(log.shouldLog(unreachable, 'events')).toBe(false);
    expect(log.shouldLog(unreachable, 'job:ledger')).toBe(true);
    expect(log.shouldLog(new Error('a bug'), 'events')).toBe(true);
    expect(log.shouldLog(new Error('a bug'), 'events')).toBe(true);
    now = 59_999;
    expect(log.shouldLog(unreachable, 'events')).toBe(false);
    now = 60_000;
    expect(log.shouldLog(unreachable, 'events')).toBe(true);
  });
});
