import { describe, expect, it } from 'vitest';
import { OutageLog } from './outage-log.ts';

const unreachable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

describe('OutageLog', () => {
  it('says the database is unreachable once a minute per topic, and every other error each time', () => {
    let now = 0;
    const log = new OutageLog({ now: () => now });
    expect(log.shouldLog(unreachable, 'events')).toBe(true);
    expect(log.shouldLog(unreachable, 'events')).toBe(false);
    expect(log.shouldLog(unreachable, 'job:ledger')).toBe(true);
    expect(log.shouldLog(new Error('a bug'), 'events')).toBe(true);
    expect(log.shouldLog(new Error('a bug'), 'events')).toBe(true);
    now = 59_999;
    expect(log.shouldLog(unreachable, 'events')).toBe(false);
    now = 60_000;
    expect(log.shouldLog(unreachable, 'events')).toBe(true);
    // Another kind of outage, by its own test.
    const redisAway = new OutageLog({ isOutage: (error) => error === 'redis away', now: () => now });
    expect([redisAway.shouldLog('redis away', 'x'), redisAway.shouldLog('redis away', 'x')]).toEqual([true, false]);
    expect(redisAway.shouldLog(unreachable, 'x')).toBe(true);
  });
});
