import type { ChainableCommander, Redis } from 'ioredis';

/*
 * The Lua scripts of the state that several instances share in Redis (docs/scaling.md). Each runs atomically in
 * Redis: what one script checks, no other instance changes before it has written. Keys are passed as KEYS (one
 * Redis, no cluster slots needed), expiries bound the memory they take.
 */

/**
 * Reserves one impression of a CPM campaign for a served ad: KEYS credits hash, reservations, today's impressions;
 * ARGV decision id, now, expiry, daily cap. Answers [1 | 0, impressions, reservations], or [-1] when the credits are
 * not known yet (the caller syncs them from the database and tries again).
 */
const RESERVE = `
local impressions = redis.call('HGET', KEYS[1], 'imp')
if not impressions then return {-1} end
impressions = tonumber(impressions)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])
local held = redis.call('ZCARD', KEYS[2])
local cap = tonumber(ARGV[4])
if impressions - held <= 0 or (cap > 0 and tonumber(redis.call('GET', KEYS[3]) or '0') + held >= cap) then
  return {0, impressions, held}
end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('PEXPIREAT', KEYS[2], ARGV[3])
return {1, impressions, held + 1}`;

/**
 * Spends one credit if no limit forbids it (the rule of billingLimit: credits left, the AutoFlow cap, the ad's
 * budget): KEYS credits hash, reservations, pending spends, today's impressions, the ad's spend; ARGV kind (i | c),
 * event id, reservation id ('' for none), now, pending expiry, cap, budget, cost bound, seconds today's key lives.
 * The reservation is released whatever the answer. Answers [1, credits before] or [0, limit], or [-1] unknown.
 */
const SPEND = `
local field = ARGV[1] == 'i' and 'imp' or 'clk'
local credits = redis.call('HGET', KEYS[1], field)
if not credits then return {-1} end
credits = tonumber(credits)
if ARGV[3] ~= '' then redis.call('ZREM', KEYS[2], ARGV[3]) end
if credits <= 0 then return {0, 'noCredits'} end
local cap = tonumber(ARGV[6])
if ARGV[1] == 'i' and cap > 0 and tonumber(redis.call('GET', KEYS[4]) or '0') >= cap then
  return {0, 'dailyCapReached'}
end
local budget = tonumber(ARGV[7])
if budget > 0 and tonumber(redis.call('GET', KEYS[5]) or '0') >= budget then return {0, 'budgetSpent'} end
redis.call('HINCRBY', KEYS[1], field, -1)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[2])
redis.call('PEXPIREAT', KEYS[3], ARGV[5])
if ARGV[1] == 'i' then
  redis.call('INCR', KEYS[4])
  redis.call('EXPIRE', KEYS[4], ARGV[9])
end
if ARGV[8] ~= '0' then redis.call('INCRBY', KEYS[5], ARGV[8]) end
return {1, credits}`;

/**
 * Undoes a spend whose batch failed: KEYS as SPEND; ARGV kind, event id, reservation id, reservation expiry, cost
 * bound. The credit comes back only if its spend is still pending (a sync since counted it as not written).
 */
const UNSPEND = `
local field = ARGV[1] == 'i' and 'imp' or 'clk'
if redis.call('ZREM', KEYS[3], ARGV[2]) == 1 and redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HINCRBY', KEYS[1], field, 1)
end
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[2], ARGV[4], ARGV[3]) end
if ARGV[1] == 'i' then redis.call('DECR', KEYS[4]) end
if ARGV[5] ~= '0' then redis.call('DECRBY', KEYS[5], ARGV[5]) end
return 1`;

/**
 * The database's credits of a campaign at a version (after a batch, a purchase, a set-aside): KEYS credits hash,
 * pending impressions, pending clicks; ARGV version, impressions, clicks, now, then how many impression ids and
 * those ids, then the click ids: the spends this instance just wrote. A newer version replaces the figures, less
 * the spends still pending everywhere; an older one only gives back the written spends, which the newer sync had
 * counted as pending although the database held them (docs/scaling.md, "Credits").
 */
const WRITTEN = `
local impressionIds = tonumber(ARGV[5])
local removedImpressions = 0
local removedClicks = 0
for i = 1, impressionIds do removedImpressions = removedImpressions + redis.call('ZREM', KEYS[2], ARGV[5 + i]) end
for i = 6 + impressionIds, #ARGV do removedClicks = removedClicks + redis.call('ZREM', KEYS[3], ARGV[i]) end
local version = tonumber(redis.call('HGET', KEYS[1], 'v') or '-1')
if tonumber(ARGV[1]) > version then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[4])
  redis.call('HSET', KEYS[1], 'v', ARGV[1],
    'imp', tonumber(ARGV[2]) - redis.call('ZCARD', KEYS[2]),
    'clk', tonumber(ARGV[3]) - redis.call('ZCARD', KEYS[3]))
else
  redis.call('HINCRBY', KEYS[1], 'imp', removedImpressions)
  redis.call('HINCRBY', KEYS[1], 'clk', removedClicks)
end
return 1`;

/**
 * A unique click: KEYS the keys it is checked under, its own first; ARGV now, how many are its own, then each own
 * key's window. Unique when none is held; then its own are held for their windows. Answers 1 or 0.
 */
const CLAIM_CLICK = `
for i = 1, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 1 then return 0 end
end
for i = 1, tonumber(ARGV[2]) do redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2 + i]) end
return 1`;

/** Deletes the keys still holding the value ARGV[1] (an undo that must not delete what another wrote since). */
const DELETE_IF_EQUAL = `
local deleted = 0
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then deleted = deleted + redis.call('DEL', KEYS[i]) end
end
return deleted`;

/**
 * A pageview's traffic counters (the rules are traffic-filter.ts's, applied by shared-traffic.ts): KEYS the
 * address's flag, its visitors this minute and this hour, the publisher's visitors today, the address's visitors
 * today, the address's requests this minute, the visitor's pageviews this minute and today; ARGV the visitor,
 * whether a browser's evidence was missing (1: the visitor counts for its address only), seconds a day's key lives,
 * the address's requests a minute and the visitor's pageviews a minute allowed. Answers [flag or '', minute, hour,
 * visitors (0 while the address brought one), from address, address requests, visitor minute, visitor day], cut
 * after the count that went over its limit.
 */
const PAGEVIEW = `
local flag = redis.call('GET', KEYS[1])
if flag then return {flag} end
-- A key is given its expiry when this call made it (a member added to a set of one, a count of 1, a sketch changed).
local function member(key, seconds)
  if redis.call('SADD', key, ARGV[1]) == 1 then
    local count = redis.call('SCARD', key)
    if count == 1 then redis.call('EXPIRE', key, seconds) end
    return count
  end
  return redis.call('SCARD', key)
end
local function count(key, seconds)
  local value = redis.call('INCR', key)
  if value == 1 then redis.call('EXPIRE', key, seconds) end
  return value
end
local function sketch(key)
  if redis.call('PFADD', key, ARGV[1]) == 1 then redis.call('EXPIRE', key, ARGV[3]) end
end
local minute = member(KEYS[2], 120)
local hour = member(KEYS[3], 7200)
if ARGV[2] == '1' then return {'', minute, hour} end
sketch(KEYS[4])
sketch(KEYS[5])
-- A pageview an earlier limit refused counts for none of the later ones (the in-process filter's order).
local requests = count(KEYS[6], 120)
if requests > tonumber(ARGV[4]) then return {'', minute, hour, 0, 0, requests} end
local visitorMinute = count(KEYS[7], 120)
if visitorMinute > tonumber(ARGV[5]) then return {'', minute, hour, 0, 0, requests, visitorMinute} end
local visitorDay = count(KEYS[8], ARGV[3])
-- The publisher's visitors matter only to an address that brought more than one (the oneIp rule).
local fromIp = redis.call('PFCOUNT', KEYS[5])
local visitors = fromIp > 1 and redis.call('PFCOUNT', KEYS[4]) or 0
return {'', minute, hour, visitors, fromIp, requests, visitorMinute, visitorDay}`;

/**
 * Adds one to each key (KEYS) in order, expiring it after its ARGV[i] seconds, and stops after a key whose count goes
 * over its limit ARGV[#KEYS + i] when one is given: what a limit refused spends none of the later keys' counts, as in
 * the in-process filter. Answers the counts made.
 */
const HIT = `
local counts = {}
local n = #KEYS
for i = 1, n do
  counts[i] = redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], ARGV[i])
  local limit = ARGV[n + i]
  if limit and counts[i] > tonumber(limit) then break end
end
return counts`;

/** Appends ARGV[1] to the list KEYS[1], which expires ARGV[2] seconds from now: one command, not a transaction. */
const APPEND = `
redis.call('RPUSH', KEYS[1], ARGV[1])
return redis.call('EXPIRE', KEYS[1], ARGV[2])`;

/** Takes the list KEYS[1] whole (LRANGE and DEL in one step). */
const TAKE_LIST = `
local items = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
return items`;

export const SCRIPTS = {
  heliumReserve: RESERVE,
  heliumSpend: SPEND,
  heliumUnspend: UNSPEND,
  heliumWritten: WRITTEN,
  heliumClaimClick: CLAIM_CLICK,
  heliumDeleteIfEqual: DELETE_IF_EQUAL,
  heliumPageview: PAGEVIEW,
  heliumHit: HIT,
  heliumAppend: APPEND,
  heliumTakeList: TAKE_LIST,
} as const;

export type ScriptName = keyof typeof SCRIPTS;

/**
 * The shared store did not answer (Redis away, a command timed out): serving answers safely without it (no ad, a
 * view or click not counted) rather than fail, and the store's state is as the last answered command left it.
 */
export class SharedStoreError extends Error {
  constructor(cause: unknown) {
    super(`The shared store (Redis) did not answer: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'SharedStoreError';
  }
}

/**
 * The scripts on one Redis connection (ioredis runs each by its SHA, loading it again after a Redis restart).
 * `run` answers what the script answered.
 */
export class RedisScripts {
  constructor(readonly redis: Redis) {
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      if (!(name in redis)) redis.defineCommand(name, { lua });
    }
  }

  /** Queues a script in a pipeline (its answer comes with the pipeline's). */
  queue(pipeline: ChainableCommander, name: ScriptName, keys: readonly string[], args: ReadonlyArray<string | number>) {
    const command = (pipeline as unknown as Record<ScriptName, (...values: unknown[]) => unknown>)[name];
    command.call(pipeline, keys.length, ...keys, ...args);
  }

  run<T = unknown>(name: ScriptName, keys: readonly string[], args: ReadonlyArray<string | number>): Promise<T> {
    const command = (this.redis as unknown as Record<ScriptName, (...values: unknown[]) => Promise<T>>)[name];
    return this.call(() => command.call(this.redis, keys.length, ...keys, ...args));
  }

  /** A command of the shared store: its failure is a SharedStoreError. */
  async call<T>(command: (redis: Redis) => Promise<T>): Promise<T> {
    try {
      return await command(this.redis);
    } catch (error) {
      throw new SharedStoreError(error);
    }
  }
}
