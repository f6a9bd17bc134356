import { formatDate, isOverdue, type Locale } from '@helium/domain';
import { formatSaleAmount } from '@helium/domain/invoice';
import { invoiceNumberOf } from '../billing-documents/documents.ts';
import type { TAdminSale, TSale } from '@helium/contracts';
import type { HashIds } from '../../infra/hash-ids.ts';
import { picoBtcText } from './purchase.ts';
import type { SaleRow } from './sales.ts';

/** A sale as its advertiser's Settings list it (specification 02, section 3). */
export function saleView(sale: SaleRow, locale: Locale, hashIds: HashIds): TSale {
  return {
    id: sale.id,
    hash_id: hashIds.encodeSale(sale.id),
    createdAtStr: formatDate(sale.createdAt, locale),
    amountStr: formatSaleAmount(sale.amountInCurrency, sale.currency, locale),
    is_paid: sale.state === 'paid',
    method: sale.method,
    state: sale.state,
    quantity: sale.quantity,
    is_cpc: sale.isCpc,
  };
}

/** A sale as admins confirm it. */
export function adminSaleView(sale: SaleRow, brand: string, locale: Locale, hashIds: HashIds, now: Date): TAdminSale {
  return {
    ...saleView(sale, locale, hashIds),
    advertiserId: sale.advertiserId,
    brand,
    campaignId: sale.campaignId,
    currency: sale.currency,
    amountInCurrency:
      sale.currency === 'btc' ? picoBtcText(sale.amountInCurrency) : (sale.amountInCurrency / 1e6).toFixed(2),
    amount: sale.amount / 1e6,
    reference: hashIds.encodeSale(sale.id),
    invoiceNumber: invoiceNumberOf(sale),
    dueAtStr: sale.dueAt ? formatDate(sale.dueAt, locale) : null,
    isOverdue: isOverdue({ state: sale.state, dueAt: sale.dueAt?.getTime() ?? null }, now.getTime()),
    latePayment: sale.latePayment,
  };
}
