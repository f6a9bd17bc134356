import { eq } from 'drizzle-orm';
import { advertisers, sales, users, type Database } from '@helium/db';
import { formatDate, type Locale } from '@helium/domain/format';
import {
  formatInvoiceNumber,
  formatSaleAmount,
  invoiceDueDate,
  unitPriceExcludingVat,
  unitSizeOf,
  vatSplit,
} from '@helium/domain/invoice';
import { INVOICE_PAYMENT_DAYS } from '@helium/domain/pricing';
import type { HashIds } from '../../infra/hash-ids.ts';
import type { Mailer } from '../../infra/mailer.ts';
import {
  latestNetworkSettings,
  latestValidNetworkSettings,
  type NetworkSettings,
} from '../network-settings/network-settings.ts';
import { invoiceMail } from './mails.ts';
import {
  renderInvoicePdf,
  renderReceiptPdf,
  type InvoiceCurrency,
  type InvoiceDocument,
  type PdfOptions,
  type ReceiptDocument,
} from './pdf.ts';
import { saleDescription } from './texts.ts';

/*
 * A sale's documents, read from the database (the sale, its advertiser and that advertiser's user, and the network
 * settings in force when the sale was made: VAT rate, seller and bank details), in the buyer's language.
 *
 * For the billing feature, after an invoice sale is committed: `invoicePdfForSale(db, saleId, hashIds)` gives the
 * PDF to attach with `invoiceMail` (mails.ts), or `mailInvoice({ db, mailer, hashIds }, saleId)` does both and sends
 * it to the advertiser. The number printed is `invoiceNumberOf(sale)` (`2026-000001`): show that same text elsewhere.
 */

type SaleRow = typeof sales.$inferSelect;
type SettingsRow = NetworkSettings;

/** A sale with what its documents print about the buyer. */
export interface SaleForDocuments {
  sale: SaleRow;
  brand: string;
  billingInformation: string | null;
  email: string;
  locale: Locale;
  businessId: string | null;
}

export async function loadSaleForDocuments(db: Database, saleId: number): Promise<SaleForDocuments | null> {
  const [row] = await db
    .select({
      sale: sales,
      brand: advertisers.brand,
      billingInformation: advertisers.billingInformation,
      email: users.email,
      locale: users.locale,
      businessId: users.businessId,
    })
    .from(sales)
    .innerJoin(advertisers, eq(advertisers.id, sales.advertiserId))
    .innerJoin(users, eq(users.id, advertisers.userId))
    .where(eq(sales.id, saleId))
    .limit(1);
  return row ?? null;
}

/**
 * The network settings in force at a moment (append-only rows; one that breaks a rule is never in force), else
 * those in force now.
 */
async function settingsAt(db: Database, at: Date): Promise<SettingsRow> {
  return (await latestValidNetworkSettings(db, at)) ?? (await latestNetworkSettings(db));
}

/** The billing information the sale recorded when it was made, else the advertiser's current one, else its brand. */
function buyerOf(row: SaleForDocuments): string {
  const text = row.sale.billingInformation?.trim() || row.billingInformation?.trim();
  return text || row.brand;
}

/** The currency an invoice is in, and the total it charges there (micro-euros or micro-dollars). */
function invoiceTotal(sale: SaleRow): { currency: InvoiceCurrency; total: number } {
  if (sale.currency === 'usd') return { currency: 'usd', total: sale.amountInCurrency };
  // Euros; a bitcoin sale (never invoiced) would be stated at its euro value.
  return { currency: 'eur', total: sale.amount };
}

/** The year of a moment in UTC, the network's time base. */
const utcYear = (date: Date) => date.getUTCFullYear();

/** The invoice's number as printed: `2026-000001` (the year it was issued, the sequential number). */
export function invoiceNumberOf(sale: Pick<SaleRow, 'invoiceNumber' | 'createdAt'>): string | null {
  return sale.invoiceNumber === null ? null : formatInvoiceNumber(sale.invoiceNumber, utcYear(sale.createdAt));
}

/** The invoice of a sale, or null when there is no such sale or it has no invoice number (not a direct-billing sale). */
export async function invoiceDocumentFor(
  db: Database,
  saleId: number,
  hashIds: HashIds,
): Promise<InvoiceDocument | null> {
  const row = await loadSaleForDocuments(db, saleId);
  if (!row) return null;
  const invoiceNumber = invoiceNumberOf(row.sale);
  if (!invoiceNumber) return null;
  const { sale, locale } = row;
  const settings = await settingsAt(db, sale.createdAt);
  const { currency, total } = invoiceTotal(sale);
  const split = vatSplit(total, settings.vatBp);
  return {
    locale,
    invoiceNumber,
    issueDate: sale.createdAt,
    dueDate: sale.dueAt ?? invoiceDueDate(sale.createdAt, INVOICE_PAYMENT_DAYS),
    seller: settings.sellerDetails,
    buyer: buyerOf(row),
    buyerVatNumber: row.businessId,
    lines: [
      {
        description: saleDescription({ quantity: sale.quantity, isCpc: sale.isCpc, brand: row.brand, locale }),
        quantity: sale.quantity,
        unitPrice: unitPriceExcludingVat(split.excludingVat, sale.quantity, sale.isCpc),
        unitSize: unitSizeOf(sale.isCpc),
        amount: split.excludingVat,
      },
    ],
    currency,
    subtotal: split.excludingVat,
    vatBp: settings.vatBp,
    vat: split.vat,
    total: split.total,
    bankDetails: settings.bankDetails,
    reference: hashIds.encodeSale(sale.id),
    paidAt: sale.state === 'paid' ? (sale.paidAt ?? null) : null,
    cancelledAt: sale.state === 'cancelled' ? (sale.cancelledAt ?? null) : null,
  };
}

/** The receipt of a sale (any method, any state), or null when there is no such sale. */
export async function receiptDocumentFor(
  db: Database,
  saleId: number,
  hashIds: HashIds,
): Promise<ReceiptDocument | null> {
  const row = await loadSaleForDocuments(db, saleId);
  if (!row) return null;
  const { sale, locale } = row;
  const settings = await settingsAt(db, sale.createdAt);
  const { currency: vatCurrency, total } = invoiceTotal(sale);
  return {
    locale,
    reference: hashIds.encodeSale(sale.id),
    invoiceNumber: invoiceNumberOf(sale),
    date: sale.createdAt,
    paidAt: sale.state === 'paid' ? (sale.paidAt ?? null) : null,
    seller: settings.sellerDetails,
    buyer: buyerOf(row),
    buyerVatNumber: row.businessId,
    description: saleDescription({ quantity: sale.quantity, isCpc: sale.isCpc, brand: row.brand, locale }),
    method: sale.method,
    state: sale.state,
    currency: sale.currency,
    amount: sale.amountInCurrency,
    vat: { ...vatSplit(total, settings.vatBp), currency: vatCurrency, vatBp: settings.vatBp },
  };
}

/**
 * The document a sale's receipt link downloads: for a direct-billing sale its invoice (the document the buyer
 * pays from, stamped paid or cancelled once it is), for any other sale its receipt. Null when there is no such sale.
 */
export async function saleDocumentPdf(
  db: Database,
  saleId: number,
  hashIds: HashIds,
  options: PdfOptions = {},
): Promise<{ kind: 'invoice' | 'receipt'; pdf: Buffer } | null> {
  const invoice = await invoiceDocumentFor(db, saleId, hashIds);
  if (invoice) return { kind: 'invoice', pdf: await renderInvoicePdf(invoice, options) };
  const receipt = await receiptDocumentFor(db, saleId, hashIds);
  return receipt ? { kind: 'receipt', pdf: await renderReceiptPdf(receipt, options) } : null;
}

/** The invoice PDF of a direct-billing sale (for `invoiceMail`); throws when the sale has no invoice. */
export async function invoicePdfForSale(
  db: Database,
  saleId: number,
  hashIds: HashIds,
  options: PdfOptions = {},
): Promise<Buffer> {
  const invoice = await invoiceDocumentFor(db, saleId, hashIds);
  if (!invoice) throw new Error(`Sale ${saleId} has no invoice`);
  return renderInvoicePdf(invoice, options);
}

/**
 * Mails a direct-billing sale's invoice, its PDF attached, to the advertiser's user in that user's language. Call
 * it after the transaction that recorded the sale has committed. Throws when the sale has no invoice; a mail that
 * cannot go out is the mailer's 503.
 */
export async function mailInvoice(
  deps: { db: Database; mailer: Mailer; hashIds: HashIds },
  saleId: number,
): Promise<void> {
  const { db, mailer, hashIds } = deps;
  const row = await loadSaleForDocuments(db, saleId);
  const invoice = await invoiceDocumentFor(db, saleId, hashIds);
  if (!row || !invoice) throw new Error(`Sale ${saleId} has no invoice`);
  const pdf = await renderInvoicePdf(invoice);
  await mailer.send(
    invoiceMail({
      to: row.email,
      locale: invoice.locale,
      brand: row.brand,
      invoiceNumber: invoice.invoiceNumber,
      amountStr: formatSaleAmount(invoice.total, invoice.currency, invoice.locale),
      dueDateStr: formatDate(invoice.dueDate, invoice.locale),
      reference: invoice.reference,
      pdf,
    }),
  );
}
