import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '@helium/db';

/**
 * The namespace of a network's shared state: its database (name and id in its PostgreSQL cluster) and its session
 * secret, which every instance of the network shares and no other network has. Instances of one network meet in
 * it; tests and other networks on the same Redis do not.
 */
export async function networkNamespace(db: Database, secret: string): Promise<string> {
  const { rows } = (await db.execute(
    sql`select current_database() as name, (select oid from pg_database where datname = current_database())::text as id`,
  )) as unknown as { rows: Array<{ name: string; id: string }> };
  const database = rows[0];
  return createHash('sha256').update(`${database?.name}|${database?.id}|${secret}`).digest('base64url').slice(0, 12);
}

/**
 * The names of the shared state's keys in Redis, under a namespace of the database they belong to (instances of
 * one network share a namespace; tests and other networks on the same Redis do not meet). Every key a day or an
 * address makes expires (redis-scripts.ts): Redis's memory follows the traffic of the last day, not its history.
 */
export class SharedKeys {
  constructor(private readonly namespace: string) {}

  private key(...parts: Array<string | number>): string {
    return `hd:${this.namespace}:${parts.join(':')}`;
  }

  /** A campaign's credits: `imp`, `clk` (less the spends pending) and `v`, the database version they follow. */
  credits = (campaignId: number) => this.key('cr', campaignId);
  /** Reservations of a campaign's served ads (decision id, expiry). */
  reservations = (campaignId: number) => this.key('rs', campaignId);
  /** A campaign's spends counted and not yet known to be written (event id, expiry). */
  pending = (campaignId: number, kind: 'impression' | 'click') =>
    this.key(kind === 'impression' ? 'pi' : 'pc', campaignId);
  /** A campaign's validated impressions of a UTC day (the AutoFlow cap). */
  today = (day: string, campaignId: number) => this.key('td', day, campaignId);
  /** An ad's spend, cost plus trial cost (its budget). */
  adSpend = (adId: number) => this.key('sp', adId);
  /** A recent decision, for the beacons that reach another instance than the one that made it. */
  decision = (decisionId: string) => this.key('dc', decisionId);
  /** A decision's view, taken by the beacon being counted. */
  view = (decisionId: string) => this.key('vw', decisionId);
  /** A unique click's key (uniqueClickKeys). */
  click = (key: string) => this.key('uc', key);
  /** A lead of a billed click. */
  lead = (clickId: string) => this.key('ld', clickId);
  /** The ad of a newsletter issue's banner. */
  issue = (publisherId: number, bannerIndex: number, issue: string) => this.key('is', publisherId, bannerIndex, issue);
  /** The rule that set an address aside on a publisher for a UTC day. */
  flag = (day: string, publisherId: number, ipHash: string) => this.key('fl', day, publisherId, ipHash);
  /** What an address counted on a publisher on a UTC day (`i:<decision>`, `c:<click>`), to set aside. */
  tally = (day: string, publisherId: number, ipHash: string) => this.key('ta', day, publisherId, ipHash);
  /** A traffic counter of the filter (its window is in its name). */
  traffic = (...parts: Array<string | number>) => this.key('tf', ...parts);
  /** The channel on which a change that affects serving is announced. */
  servingChanges = () => this.key('serving-changed');
}
