import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { auditLog, couponRedemptions, coupons, type Database } from '@helium/db';
import { couponProblem, type Coupon } from '@helium/domain';
import type { TCoupon, TCreateCouponRequest } from '@helium/contracts';
import { fieldRefusal, HttpError, notFound } from '../../http/errors.ts';
import { addCredits } from './credits-ledger.ts';
import type { PurchaseContext } from './purchase.ts';
import type { AdminAction } from './sales.ts';

type CouponRow = typeof coupons.$inferSelect;
type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** Codes are kept in capitals: an advertiser may type them in any case. */
export const normalCode = (code: string) => code.trim().toUpperCase();

function asCoupon(row: CouponRow): Coupon {
  return {
    code: row.code,
    percentOffBp: row.percentOffBp,
    freeQuantity: row.freeQuantity,
    expiresAt: row.expiresAt?.getTime() ?? null,
  };
}

/** Unique violations (one use per advertiser, one code) are refusals, not failures. */
function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } }).code ??
    (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

/**
 * An advertiser applies a coupon to a campaign: free credits are added at once (an entry of kind coupon); a
 * percentage waits for the next purchase. Once per advertiser, enforced by the database.
 */
export async function applyCoupon(
  db: Database,
  context: PurchaseContext,
  advertiserId: number,
  userId: number,
  code: string,
  now: Date,
): Promise<void> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(eq(coupons.code, normalCode(code)));
  if (!row) throw notFound('This coupon code does not exist.');
  const [used] = await db
    .select({ total: count() })
    .from(couponRedemptions)
    .where(sql`${couponRedemptions.couponId} = ${row.id} and ${couponRedemptions.advertiserId} = ${advertiserId}`);
  const problem = couponProblem(asCoupon(row), now.getTime(), (used?.total ?? 0) > 0);
  if (problem === 'expired') throw new HttpError(410, 'coupon.expired', 'This coupon has expired.');
  if (problem === 'alreadyUsed') throw alreadyUsed();
  try {
    await db.transaction(async (tx) => {
      await tx.insert(couponRedemptions).values({
        couponId: row.id,
        advertiserId,
        campaignId: context.campaign.id,
        createdAt: now,
      });
      if (row.freeQuantity !== null) {
        await addCredits(tx, {
          campaignId: context.campaign.id,
          isCpc: context.campaign.isCpc,
          kind: 'coupon',
          quantity: row.freeQuantity,
          couponId: row.id,
          note: `coupon ${row.code}`,
          createdBy: userId,
          createdAt: now,
        });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyUsed();
    throw error;
  }
}

const alreadyUsed = () => new HttpError(409, 'coupon.alreadyUsed', 'This coupon was already used by this advertiser.');

/*
 * A percent-off coupon is claimed by the sale priced with it, in the transaction that records the sale: a
 * conditional update that only one sale can win (docs/billing.md). A sale cancelled or expired before it was paid
 * gives it back; a payment that arrives after all takes it again if it is still free.
 */

/** Claims a waiting coupon for a sale being priced: true when this sale got it, false when another holds it. */
export async function claimCoupon(tx: Transaction, redemptionId: number, saleId: number): Promise<boolean> {
  const claimed = await tx
    .update(couponRedemptions)
    .set({ saleId })
    .where(and(eq(couponRedemptions.id, redemptionId), isNull(couponRedemptions.saleId)))
    .returning({ id: couponRedemptions.id });
  return claimed.length === 1;
}

/** Claims the coupon a sale was priced with again, when it is still free (a payment after cancellation). */
export async function reclaimCoupon(
  tx: Transaction,
  sale: { id: number; couponId: number | null; advertiserId: number },
): Promise<boolean> {
  if (sale.couponId === null) return false;
  const claimed = await tx
    .update(couponRedemptions)
    .set({ saleId: sale.id })
    .where(
      and(
        eq(couponRedemptions.couponId, sale.couponId),
        eq(couponRedemptions.advertiserId, sale.advertiserId),
        isNull(couponRedemptions.saleId),
      ),
    )
    .returning({ id: couponRedemptions.id });
  return claimed.length === 1;
}

/** Gives back the coupon a sale claimed: the sale was cancelled or expired before it was paid. */
export async function releaseCoupon(tx: Transaction, saleId: number): Promise<void> {
  await tx.update(couponRedemptions).set({ saleId: null }).where(eq(couponRedemptions.saleId, saleId));
}

export async function listCoupons(db: Database): Promise<TCoupon[]> {
  const rows = await db
    .select({ coupon: coupons, redemptions: count(couponRedemptions.id) })
    .from(coupons)
    .leftJoin(couponRedemptions, eq(couponRedemptions.couponId, coupons.id))
    .groupBy(coupons.id)
    .orderBy(desc(coupons.id));
  return rows.map(({ coupon, redemptions }) => couponView(coupon, redemptions));
}

function couponView(row: CouponRow, redemptions: number): TCoupon {
  return {
    id: row.id,
    code: row.code,
    percentOff: row.percentOffBp === null ? null : row.percentOffBp / 100,
    freeQuantity: row.freeQuantity,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    redemptions,
  };
}

/** An admin creates a coupon (audited); a code that exists already is a 409. */
export async function createCoupon(
  db: Database,
  request: Required<Pick<TCreateCouponRequest, 'code'>> & {
    percentOff: number | null;
    freeQuantity: number | null;
    expiresAt: string | null;
  },
  admin: AdminAction,
): Promise<TCoupon> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(coupons)
        .values({
          code: normalCode(request.code),
          percentOffBp: request.percentOff === null ? null : request.percentOff * 100,
          freeQuantity: request.freeQuantity,
          expiresAt: request.expiresAt ? new Date(request.expiresAt) : null,
          createdBy: admin.userId,
          createdAt: admin.now,
        })
        .returning();
      if (!row) throw new Error('The coupon was not recorded');
      await tx.insert(auditLog).values({
        actorUserId: admin.userId,
        action: 'coupon.create',
        targetType: 'coupon',
        targetId: row.id,
        details: { code: row.code, percentOffBp: row.percentOffBp, freeQuantity: row.freeQuantity },
        ip: admin.ip,
        createdAt: admin.now,
      });
      return couponView(row, 0);
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw fieldRefusal(409, 'coupon.codeTaken', 'A coupon with this code exists already.', {
        path: 'code',
        key: 'codeTaken',
      });
    }
    throw error;
  }
}
