import { eq, sql } from 'drizzle-orm';
import { campaignCredits, campaigns, type Database } from '@helium/db';

/** A transaction or the database: entries are written inside the transaction that moves the money. */
type Executor = Pick<Database, 'insert' | 'update' | 'select' | 'execute'>;

export type CreditKind = (typeof campaignCredits.$inferInsert)['kind'];

export interface CreditEntry {
  campaignId: number;
  isCpc: boolean;
  kind: CreditKind;
  /** Impressions (or clicks for a click-priced campaign); negative for a cancellation. */
  quantity: number;
  saleId?: number | null;
  couponId?: number | null;
  note?: string | null;
  createdBy?: number | null;
  createdAt: Date;
}

/**
 * Adds credits to a campaign: one append-only entry and the campaign's remaining count moved by the same
 * quantity, in the caller's transaction. A sale credits once and is reversed once, a coupon once per campaign
 * (unique indexes): a second attempt fails in the database and the transaction adds nothing.
 * A cancellation takes back at most what is left (credits already delivered stay delivered); its entry records
 * what it took, so remaining = credited - consumed still holds. Answers the quantity moved.
 */
export async function addCredits(tx: Executor, entry: CreditEntry): Promise<number> {
  // The row lock orders this against delivery's batches, which move the same count.
  const [row] = await tx
    .select({ impressions: campaigns.remainingImpressions, clicks: campaigns.remainingClicks })
    .from(campaigns)
    .where(eq(campaigns.id, entry.campaignId))
    .for('update');
  if (!row) throw new Error(`Campaign ${entry.campaignId} does not exist`);
  const remaining = entry.isCpc ? row.clicks : row.impressions;
  const moved = Math.max(entry.quantity, -remaining);
  await tx
    .update(campaigns)
    .set(
      entry.isCpc
        ? { remainingClicks: sql`${campaigns.remainingClicks} + ${moved}` }
        : { remainingImpressions: sql`${campaigns.remainingImpressions} + ${moved}` },
    )
    .where(eq(campaigns.id, entry.campaignId));
  await tx.insert(campaignCredits).values({
    campaignId: entry.campaignId,
    kind: entry.kind,
    impressions: entry.isCpc ? 0 : moved,
    clicks: entry.isCpc ? moved : 0,
    saleId: entry.saleId ?? null,
    couponId: entry.couponId ?? null,
    note: entry.note ?? null,
    createdBy: entry.createdBy ?? null,
    createdAt: entry.createdAt,
  });
  return moved;
}

/**
 * The one query that checks the ledger of credits: campaigns whose remaining credits differ from what was
 * credited minus what delivery consumed (validated impressions of impression-priced campaigns, billed clicks of
 * click-priced ones, as the daily summaries count them after set-asides). Empty when all is right.
 */
export async function creditMismatches(
  db: Pick<Database, 'execute'>,
): Promise<Array<{ campaignId: number; remaining: number; expected: number }>> {
  const result = (await db.execute(sql`
    SELECT c.id AS "campaignId",
      CASE WHEN c.is_cpc THEN c.remaining_clicks ELSE c.remaining_impressions END AS remaining,
      CASE WHEN c.is_cpc THEN coalesce(cr.clicks, 0) - coalesce(d.clicks, 0)
        ELSE coalesce(cr.impressions, 0) - coalesce(d.impressions, 0) END AS expected
    FROM campaigns c
    LEFT JOIN (SELECT campaign_id, sum(impressions) AS impressions, sum(clicks) AS clicks
      FROM campaign_credits GROUP BY campaign_id) cr ON cr.campaign_id = c.id
    LEFT JOIN (SELECT campaign_id, sum(impressions) AS impressions, sum(clicks) AS clicks
      FROM daily_ad_stats GROUP BY campaign_id) d ON d.campaign_id = c.id
    WHERE CASE WHEN c.is_cpc THEN c.remaining_clicks ELSE c.remaining_impressions END
      <> CASE WHEN c.is_cpc THEN coalesce(cr.clicks, 0) - coalesce(d.clicks, 0)
        ELSE coalesce(cr.impressions, 0) - coalesce(d.impressions, 0) END
    ORDER BY c.id`)) as unknown as { rows: Array<Record<string, unknown>> };
  return result.rows.map((row) => ({
    campaignId: Number(row.campaignId),
    remaining: Number(row.remaining),
    expected: Number(row.expected),
  }));
}
