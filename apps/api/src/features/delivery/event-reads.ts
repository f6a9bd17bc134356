import { eq, sql, type SQL } from 'drizzle-orm';
import { adClicks, adDecisions, adImpressions, adLeads, invalidTraffic, owlIssueAds, type Database } from '@helium/db';
import { CLICK_TOKEN_MS, UNIQUE_CLICK_MS, type Channel, type Device } from '@helium/domain';

/*
 * What the engine reads back from the event tables: a decision a token names, a click a lead reports, a newsletter
 * issue's ad, and the one statement that sets an address's traffic aside. Everything else it writes through the
 * group-commit recorder (store.ts).
 */

/**
 * Whether a decision's view was used, in the database: counted (`ad_impressions`), or refused because the
 * campaign had reached a limit (`invalid_traffic`, `noCredits`: the visitor's view came, too late to bill).
 * Either way a later beacon of its token is a replay, also once the decision has left memory (after 2
 * minutes, or a restart). A view set aside as a bot's or a data centre's came from someone else: the
 * visitor's own may still count.
 */
function viewUsed(decisionId: SQL) {
  return sql`(exists (select 1 from ${adImpressions} where ${adImpressions.decisionId} = ${decisionId}) or exists (select 1 from ${invalidTraffic} where ${invalidTraffic.decisionId} = ${decisionId} and ${invalidTraffic.decisionId} is not null and ${invalidTraffic.kind} = 'impression' and ${invalidTraffic.reason} = 'noCredits'))`;
}

export interface StoredDecision {
  id: string;
  publisherId: number;
  adId: number;
  campaignId: number;
  channel: Channel;
  device: Device;
  url: string;
  ip: string | null;
  country: string | null;
  at: Date;
  viewed: boolean;
}

function prepareDecisionRead(db: Database) {
  return db
    .select({
      id: adDecisions.id,
      publisherId: adDecisions.publisherId,
      adId: adDecisions.adId,
      campaignId: adDecisions.campaignId,
      channel: adDecisions.channel,
      device: adDecisions.device,
      url: adDecisions.url,
      ip: adDecisions.ip,
      country: adDecisions.country,
      at: adDecisions.createdAt,
      viewed: sql<boolean>`${viewUsed(sql`${adDecisions.id}`)}`,
    })
    .from(adDecisions)
    .where(eq(adDecisions.id, sql.placeholder('decisionId')))
    .limit(1)
    .prepare('read_decision');
}

/**
 * Prepared once per database: every view that reaches another server than its decision's reads it, and
 * building the statement each time cost twice running it (measured on PostgreSQL: 270 against 90 us of CPU).
 */
const decisionReads = new WeakMap<Database, ReturnType<typeof prepareDecisionRead>>();

/** A decision's record with whether its view was used; undefined when it was never written (lost in a crash). */
export async function readDecision(db: Database, decisionId: string): Promise<StoredDecision | undefined> {
  let read = decisionReads.get(db);
  if (!read) decisionReads.set(db, (read = prepareDecisionRead(db)));
  const [row] = await read.execute({ decisionId });
  return row ? { ...row, viewed: Boolean(row.viewed) } : undefined;
}

/** Whether the view of a decision without a record was used (its impression may have been written all the same). */
export async function isViewUsed(db: Database, decisionId: string): Promise<boolean> {
  // Both drivers (node-postgres and PGlite) answer `{ rows }`.
  const { rows } = (await db.execute(sql`select ${viewUsed(sql`${decisionId}`)} as viewed`)) as unknown as {
    rows: Array<{ viewed: boolean }>;
  };
  return Boolean(rows[0]?.viewed);
}

export type StoredClick = typeof adClicks.$inferSelect;

export async function readClick(db: Database, clickId: string): Promise<StoredClick | undefined> {
  const [click] = await db.select().from(adClicks).where(eq(adClicks.id, clickId)).limit(1);
  return click;
}

/**
 * The unique click a repeat click repeats: the latest unique click on the ad of the same visitor within the
 * hour, or through the same decision within its token's life (the rules of uniqueClickKeys).
 */
export async function uniqueClickBefore(db: Database, repeat: StoredClick): Promise<StoredClick | undefined> {
  const [unique] = await db
    .select()
    .from(adClicks)
    .where(
      sql`${adClicks.adId} = ${repeat.adId} and ${adClicks.isUnique} and ${adClicks.createdAt} <= ${repeat.createdAt}
        and ((${adClicks.visitor} = ${repeat.visitor}
              and ${adClicks.createdAt} > ${new Date(repeat.createdAt.getTime() - UNIQUE_CLICK_MS)})
          or (${adClicks.decisionId} = ${repeat.decisionId} and ${adClicks.decisionId} not like 'owl:%'
              and ${adClicks.createdAt} > ${new Date(repeat.createdAt.getTime() - CLICK_TOKEN_MS)}))`,
    )
    .orderBy(sql`${adClicks.createdAt} desc`)
    .limit(1);
  return unique;
}

export async function hasLead(db: Database, clickId: string): Promise<boolean> {
  const [existing] = await db
    .select({ id: adLeads.clickId })
    .from(adLeads)
    .where(eq(adLeads.clickId, clickId))
    .limit(1);
  return Boolean(existing);
}

/** Where a click's decision was shown (its channel and page), for the lead's summaries. */
export async function decisionPlace(db: Database, decisionId: string) {
  const [decision] = await db
    .select({ channel: adDecisions.channel, url: adDecisions.url })
    .from(adDecisions)
    .where(eq(adDecisions.id, decisionId))
    .limit(1);
  return decision;
}

/** The ad a newsletter issue's banner was given at its first open, if it was. */
export async function readIssueAd(
  db: Database,
  publisherId: number,
  bannerIndex: number,
  issue: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ adId: owlIssueAds.adId })
    .from(owlIssueAds)
    .where(
      sql`${owlIssueAds.publisherId} = ${publisherId} and ${owlIssueAds.bannerIndex} = ${bannerIndex} and ${owlIssueAds.issue} = ${issue}`,
    )
    .limit(1);
  return row?.adId;
}

/** An impression or unique click set_aside_traffic reversed, as it answers it. */
export interface ReversedEvent {
  kind: 'impression' | 'click';
  publisherId: number;
  adId: number;
  campaignId: number;
  channel: Channel;
  device: Device;
  day: string;
  cost: number;
  trialCost: number;
  credit: boolean;
}

/**
 * set_aside_traffic (migrations 0009, 0015): the events still billed are marked with the rule, leave the day's
 * summaries and give their credits back, each once; answers what it reversed.
 */
export async function setAsideTraffic(
  db: Database,
  work: { impressions: string[]; clicks: string[]; reason: string },
  at: Date,
): Promise<ReversedEvent[]> {
  const { rows } = (await db.execute(
    sql`select set_aside_traffic(${JSON.stringify(work.impressions)}::json, ${JSON.stringify(work.clicks)}::json, ${work.reason}, ${at.toISOString()}::timestamptz) as reversed`,
  )) as unknown as { rows: Array<{ reversed: unknown }> };
  const answer = rows[0]?.reversed;
  const reversed = (typeof answer === 'string' ? JSON.parse(answer) : (answer ?? [])) as ReversedEvent[];
  return reversed.map((event) => ({ ...event, cost: Number(event.cost), trialCost: Number(event.trialCost) }));
}
