import { desc, eq } from 'drizzle-orm';
import { advertisers, sales, type Database } from '@helium/db';
import { formatDate, USER_TYPE, type Locale } from '@helium/domain';
import type { TAdvertiserSettings } from '@helium/contracts';
import { notFound } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';
import { saleDocumentPdf } from '../billing-documents/documents.ts';
import { saleView } from '../billing/sale-view.ts';

/*
 * The advertiser's Settings (specification 02, sections 2.4, 3, 5 and 7): its name, type and since date, its billing
 * information, and its sales, each with a receipt to download (/advertiser/receipt/<hash id>).
 */

/** The Settings screen of the advertiser account in use: the advertiser, its billing form, its sales newest first. */
export async function advertiserSettings(
  db: Database,
  hashIds: HashIds,
  advertiserId: number,
  locale: Locale,
): Promise<TAdvertiserSettings> {
  const [advertiser] = await db.select().from(advertisers).where(eq(advertisers.id, advertiserId)).limit(1);
  if (!advertiser) throw notFound('This advertiser does not exist.');
  const rows = await db
    .select()
    .from(sales)
    .where(eq(sales.advertiserId, advertiserId))
    .orderBy(desc(sales.createdAt), desc(sales.id));
  return {
    advertiser: {
      id: advertiser.id,
      brand: advertiser.brand,
      type: USER_TYPE.advertiser,
      createdAtStr: formatDate(advertiser.createdAt, locale),
    },
    form: { billingInformation: { address: advertiser.billingInformation ?? '' } },
    sales: rows.map((sale) => saleView(sale, locale, hashIds)),
  };
}

/** Stores the advertiser's billing information (the contract has refused an empty one). */
export async function saveBillingInformation(db: Database, advertiserId: number, address: string): Promise<void> {
  const updated = await db
    .update(advertisers)
    .set({ billingInformation: address })
    .where(eq(advertisers.id, advertiserId))
    .returning({ id: advertisers.id });
  if (updated.length === 0) throw notFound('This advertiser does not exist.');
}

/** Who asks for a receipt: an admin, or the advertiser account in use (null: signed out or neither). */
export type ReceiptViewer = { isAdmin: true } | { isAdmin: false; advertiserId: number } | null;

/** Hash ids are short; a longer path segment is not one (and is not worth decoding). */
const MAX_HASH_ID_LENGTH = 64;

/**
 * A sale's receipt for its owner (the advertiser account in use) or an admin: for a direct-billing sale its
 * invoice, otherwise its receipt (billing-documents/documents.ts). Anyone else, and an unknown or malformed hash
 * id, gets the same 404, so a receipt link tells a stranger nothing, not even that the sale exists.
 */
export async function saleReceipt(
  db: Database,
  hashIds: HashIds,
  hashId: string,
  viewer: ReceiptViewer,
): Promise<{ filename: string; pdf: Buffer }> {
  const refused = () => notFound('No such receipt.');
  if (!viewer || hashId.length > MAX_HASH_ID_LENGTH) throw refused();
  const saleId = hashIds.decodeSale(hashId);
  if (saleId === null) throw refused();
  const [sale] = await db.select({ advertiserId: sales.advertiserId }).from(sales).where(eq(sales.id, saleId)).limit(1);
  if (!sale || (!viewer.isAdmin && viewer.advertiserId !== sale.advertiserId)) throw refused();
  const document = await saleDocumentPdf(db, saleId, hashIds);
  if (!document) throw refused();
  return { filename: `receipt-${hashId}.pdf`, pdf: document.pdf };
}
