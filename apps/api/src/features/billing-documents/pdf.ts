import type PDFKitDocument from 'pdfkit';
import { BITCOIN_SIGN, formatDate, formatNumber, type Currency, type Locale } from '@helium/domain/format';
import {
  formatInvoiceNumber,
  formatSaleAmount,
  formatUnitPrice,
  formatVatRate,
  type VatSplit,
} from '@helium/domain/invoice';
import { INVOICE_PAYMENT_DAYS } from '@helium/domain/pricing';

/*
 * Invoices and receipts as PDF documents (specification 02, sections 2.4 and 9; design decisions sections 1 and 3),
 * drawn with pdfkit's standard Helvetica (nothing to embed), in the buyer's language.
 *
 * Amounts are integers in micro-units of the document's currency (micro-euros, micro-dollars; pico-bitcoins for
 * a bitcoin receipt's amount). The amount a sale charges INCLUDES VAT: the buyer pays exactly the price quoted,
 * and the documents split it with `vatSplit` (packages/domain/src/invoice.ts): VAT = total - total / (1 + rate),
 * rounded to the cent; excluding VAT = the rest.
 */

export { formatInvoiceNumber };

/** The currencies an invoice is issued in (direct billing is offered in euros and dollars). */
export type InvoiceCurrency = 'eur' | 'usd';

export interface InvoiceLine {
  /** `100,000 impressions — campaign Nordvik Outdoor` (texts.ts `saleDescription`). */
  description: string;
  quantity: number;
  /** The price excluding VAT of `unitSize` items, in micro-units (may hold a fraction of a micro-unit). */
  unitPrice: number;
  /** 1, or 1,000 for impressions (a price per thousand). */
  unitSize: number;
  /** Excluding VAT, micro-units. */
  amount: number;
}

export interface InvoiceDocument {
  locale: Locale;
  /** `2026-000001` (formatInvoiceNumber). */
  invoiceNumber: string;
  issueDate: Date;
  /** 30 days after the issue (INVOICE_PAYMENT_DAYS). */
  dueDate: Date;
  /** The network's seller details, several lines. */
  seller: string;
  /** The buyer's billing information, several lines. */
  buyer: string;
  /** The buyer's VAT or business number, when known. */
  buyerVatNumber?: string | null;
  lines: InvoiceLine[];
  currency: InvoiceCurrency;
  /** Excluding VAT, the VAT at `vatBp` and the total including VAT, micro-units (vatSplit of the total). */
  subtotal: number;
  vatBp: number;
  vat: number;
  total: number;
  /** The network's bank details, several lines. */
  bankDetails: string;
  /** What the buyer quotes with the transfer (the sale's hash id). */
  reference: string;
  /** Printed on the invoice when the transfer was confirmed, or when the sale was cancelled. */
  paidAt?: Date | null;
  cancelledAt?: Date | null;
}

export type SaleMethod = 'card' | 'bitcoin' | 'invoice';
export type SaleState = 'pending' | 'unpaid' | 'paid' | 'cancelled';

export interface ReceiptDocument {
  locale: Locale;
  /** The sale's reference (its hash id). */
  reference: string;
  /** The invoice of an invoice sale. */
  invoiceNumber?: string | null;
  /** When the sale was made, and when it was paid (null while not paid). */
  date: Date;
  paidAt: Date | null;
  seller: string;
  buyer: string;
  buyerVatNumber?: string | null;
  /** `100,000 impressions — campaign Nordvik Outdoor`. */
  description: string;
  method: SaleMethod;
  state: SaleState;
  /** What the sale charges, VAT included, in its currency: micro-euros, micro-dollars or pico-bitcoins. */
  currency: Currency;
  amount: number;
  /**
   * The VAT included, in euros or dollars, micro-units: for a sale in euros or dollars the split of `amount`; for a
   * bitcoin sale the split of its value in euros at the sale's rate.
   */
  vat: VatSplit & { currency: InvoiceCurrency; vatBp: number };
}

export interface PdfOptions {
  /** pdfkit compresses its content streams; tests may turn that off to read the text. */
  compress?: boolean;
}

const TEXTS = {
  en: {
    colon: ': ',
    invoice: 'Invoice',
    receipt: 'Receipt',
    invoiceNumber: 'Invoice number',
    issueDate: 'Issue date',
    dueDate: 'Due date',
    date: 'Date',
    reference: 'Reference',
    seller: 'Seller',
    billTo: 'Bill to',
    customer: 'Customer',
    vatNumber: 'VAT number',
    description: 'Description',
    quantity: 'Quantity',
    unitPrice: 'Unit price excl. VAT',
    amount: 'Amount excl. VAT',
    perThousand: 'per 1,000',
    subtotal: 'Subtotal excluding VAT',
    vat: (rate: string) => `VAT (${rate})`,
    total: 'Total including VAT',
    paymentTerms: (days: number, reference: string) =>
      `Payment by bank transfer within ${days} days, quoting reference ${reference}.`,
    bankDetails: 'Bank details',
    paidOn: (date: string) => `Paid on ${date}`,
    cancelledOn: (date: string) => `Cancelled on ${date}`,
    method: 'Payment method',
    methods: { card: 'Card', bitcoin: 'Bitcoin', invoice: 'Bank transfer (invoice)' },
    state: 'State',
    states: { paid: 'Paid', pending: 'Not yet paid', unpaid: 'Not yet paid', cancelled: 'Cancelled' },
    amountPaid: 'Amount paid',
    amountDue: 'Amount due',
    paidAt: 'Paid on',
    euroValue: 'Value in euros',
    excludingVat: 'Excluding VAT',
    includedVat: (rate: string) => `Of which VAT (${rate})`,
    vatIncluded: 'Amounts include VAT.',
  },
  fr: {
    colon: '\u202f: ',
    invoice: 'Facture',
    receipt: 'Reçu',
    invoiceNumber: 'Facture n°',
    issueDate: "Date d'émission",
    dueDate: "Date d'échéance",
    date: 'Date',
    reference: 'Référence',
    seller: 'Vendeur',
    billTo: 'Facturé à',
    customer: 'Client',
    vatNumber: 'N° de TVA',
    description: 'Désignation',
    quantity: 'Quantité',
    unitPrice: 'Prix unitaire HT',
    amount: 'Montant HT',
    perThousand: 'les 1 000',
    subtotal: 'Total HT',
    vat: (rate: string) => `TVA (${rate})`,
    total: 'Total TTC',
    paymentTerms: (days: number, reference: string) =>
      `Paiement par virement bancaire sous ${days} jours, en indiquant la référence ${reference}.`,
    bankDetails: 'Coordonnées bancaires',
    paidOn: (date: string) => `Payée le ${date}`,
    cancelledOn: (date: string) => `Annulée le ${date}`,
    method: 'Moyen de paiement',
    methods: { card: 'Carte bancaire', bitcoin: 'Bitcoin', invoice: 'Virement bancaire (facture)' },
    state: 'État',
    states: { paid: 'Payé', pending: 'Pas encore payé', unpaid: 'Pas encore payé', cancelled: 'Annulé' },
    amountPaid: 'Montant payé',
    amountDue: 'Montant dû',
    paidAt: 'Payé le',
    euroValue: 'Contre-valeur en euros',
    excludingVat: 'Montant HT',
    includedVat: (rate: string) => `Dont TVA (${rate})`,
    vatIncluded: 'Montants TTC.',
  },
} as const;

const textsFor = (locale: Locale) => TEXTS[locale] ?? TEXTS.en;

/** The characters of pdfkit's standard fonts (WinAnsi): the rest is replaced, the bitcoin sign by `BTC `. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'.split(''));
function printable(text: string): string {
  return text
    .replaceAll(BITCOIN_SIGN, 'BTC ')
    .replace(/[\u2000-\u200B\u202F\u205F]/g, ' ')
    .replace(/[^\n\u0020-\u007E\u00A0-\u00FF]/g, (char) => (WIN_ANSI_EXTRA.has(char) ? char : '?'));
}

/** An amount for a document: `1,234.56 €`, `$1,234.56`, `BTC 0.012345678912` (formatSaleAmount). */
function money(amount: number, currency: Currency, locale: Locale): string {
  return printable(formatSaleAmount(amount, currency, locale));
}

/** A unit price, to 4 decimals, per 1,000 impressions or per click. */
function unitPriceText(line: InvoiceLine, currency: InvoiceCurrency, locale: Locale): string {
  const text = formatUnitPrice(line.unitPrice, currency, locale);
  return line.unitSize === 1000 ? `${text} ${textsFor(locale).perThousand}` : text;
}

const rateText = formatVatRate;

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const LEFT = 50;
const WIDTH = 495;
const RIGHT = LEFT + WIDTH;

/** pdfkit and its font libraries take a third of a second to load: with the first document, not at every start. */
let pdfkit: Promise<typeof PDFKitDocument> | undefined;

/** A new A4 document and the promise of its bytes once ended. */
async function startDocument(title: string, locale: Locale, options: PdfOptions) {
  pdfkit ??= import('pdfkit').then((module) => module.default);
  const PDFDocument = await pdfkit;
  const doc = new PDFDocument({
    size: 'A4',
    margin: LEFT,
    compress: options.compress ?? true,
    lang: locale,
    info: { Title: title },
  });
  const chunks: Buffer[] = [];
  const bytes = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font(FONT).fontSize(10).fillColor('#111111');
  return { doc, bytes };
}

type Doc = PDFKit.PDFDocument;

/** Text at (x, y) in a box `width` wide; answers where it ends. */
function put(
  doc: Doc,
  text: string,
  x: number,
  y: number,
  width: number,
  options: { bold?: boolean; size?: number; align?: 'left' | 'right'; color?: string } = {},
): number {
  doc
    .font(options.bold ? BOLD : FONT)
    .fontSize(options.size ?? 10)
    .fillColor(options.color ?? '#111111');
  doc.text(printable(text), x, y, { width, align: options.align ?? 'left' });
  return doc.y;
}

function rule(doc: Doc, y: number) {
  doc.moveTo(LEFT, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor('#999999').stroke();
}

/** The page's head: the seller on the left, the title and its facts on the right; answers the y below both. */
function header(doc: Doc, seller: string, title: string, facts: Array<[string, string]>, colon: string): number {
  const [name = '', ...rest] = seller.split('\n');
  let left = put(doc, name, LEFT, LEFT, 250, { bold: true, size: 11 });
  if (rest.length > 0) left = put(doc, rest.join('\n'), LEFT, left + 2, 250);
  let right = put(doc, title, 300, LEFT, 245, { bold: true, size: 22, align: 'right' });
  right += 6;
  for (const [label, value] of facts) right = put(doc, `${label}${colon}${value}`, 300, right, 245, { align: 'right' });
  return Math.max(left, right) + 28;
}

/** The buyer's block under a label; answers the y below it. */
function party(
  doc: Doc,
  label: string,
  text: string,
  vatNumber: string | null | undefined,
  vatLabel: string,
  y: number,
) {
  let bottom = put(doc, label, LEFT, y, 300, { bold: true, color: '#555555', size: 9 });
  bottom = put(doc, text.trim() === '' ? '-' : text, LEFT, bottom + 2, 300);
  if (vatNumber) bottom = put(doc, `${vatLabel}${vatNumber}`, LEFT, bottom + 2, 300);
  return bottom + 24;
}

/** Label and value lines ending at the right margin (an invoice's totals); answers the y below them. */
function totalsBlock(doc: Doc, rows: Array<{ label: string; value: string; bold?: boolean }>, y: number): number {
  let bottom = y;
  for (const row of rows) {
    const top = bottom;
    const a = put(doc, row.label, 250, top, 190, { align: 'right', bold: row.bold });
    const b = put(doc, row.value, 445, top, 100, { align: 'right', bold: row.bold });
    bottom = Math.max(a, b) + 4;
  }
  return bottom;
}

/** Renders an invoice: seller, buyer, lines, totals excluding and including VAT, and how to pay. */
export async function renderInvoicePdf(document: InvoiceDocument, options: PdfOptions = {}): Promise<Buffer> {
  const { locale, currency } = document;
  const t = textsFor(locale);
  const { doc, bytes } = await startDocument(`${t.invoice} ${document.invoiceNumber}`, locale, options);

  let y = header(
    doc,
    document.seller,
    t.invoice,
    [
      [t.invoiceNumber, document.invoiceNumber],
      [t.issueDate, formatDate(document.issueDate, locale)],
      [t.dueDate, formatDate(document.dueDate, locale)],
    ],
    t.colon,
  );
  y = party(doc, t.billTo, document.buyer, document.buyerVatNumber, `${t.vatNumber}${t.colon}`, y);

  // The lines: description, quantity, unit price and amount, excluding VAT.
  const columns = [
    { x: LEFT, width: 215, align: 'left' as const },
    { x: 270, width: 70, align: 'right' as const },
    { x: 345, width: 105, align: 'right' as const },
    { x: 455, width: 90, align: 'right' as const },
  ];
  const row = (cells: string[], top: number, bold = false) =>
    Math.max(
      ...cells.map((cell, i) => {
        const column = columns[i]!;
        return put(doc, cell, column.x, top, column.width, { align: column.align, bold, size: 9.5 });
      }),
    );
  y = row([t.description, t.quantity, t.unitPrice, t.amount], y, true) + 4;
  rule(doc, y);
  y += 6;
  for (const line of document.lines) {
    y =
      row(
        [
          line.description,
          formatNumber(line.quantity, locale),
          unitPriceText(line, currency, locale),
          money(line.amount, currency, locale),
        ],
        y,
      ) + 6;
  }
  rule(doc, y);
  y += 8;

  const rate = rateText(document.vatBp, locale);
  y = totalsBlock(
    doc,
    [
      { label: t.subtotal, value: money(document.subtotal, currency, locale) },
      { label: t.vat(rate), value: money(document.vat, currency, locale) },
      { label: t.total, value: money(document.total, currency, locale), bold: true },
    ],
    y,
  );
  y += 24;

  if (document.cancelledAt) {
    y = put(doc, t.cancelledOn(formatDate(document.cancelledAt, locale)), LEFT, y, WIDTH, { bold: true, size: 12 });
    y += 12;
  } else if (document.paidAt) {
    y = put(doc, t.paidOn(formatDate(document.paidAt, locale)), LEFT, y, WIDTH, { bold: true, size: 12 });
    y += 12;
  }
  y = put(doc, t.paymentTerms(INVOICE_PAYMENT_DAYS, document.reference), LEFT, y, WIDTH) + 10;
  y = put(doc, t.bankDetails, LEFT, y, WIDTH, { bold: true, color: '#555555', size: 9 });
  put(doc, document.bankDetails, LEFT, y + 2, WIDTH);

  doc.end();
  return bytes;
}

/** Renders a receipt: the sale, how it is paid, its state, and the amount with the VAT it includes. */
export async function renderReceiptPdf(document: ReceiptDocument, options: PdfOptions = {}): Promise<Buffer> {
  const { locale } = document;
  const t = textsFor(locale);
  const { doc, bytes } = await startDocument(`${t.receipt} ${document.reference}`, locale, options);

  const facts: Array<[string, string]> = [
    [t.reference, document.reference],
    [t.date, formatDate(document.date, locale)],
  ];
  if (document.invoiceNumber) facts.push([t.invoiceNumber, document.invoiceNumber]);
  let y = header(doc, document.seller, t.receipt, facts, t.colon);
  y = party(doc, t.customer, document.buyer, document.buyerVatNumber, `${t.vatNumber}${t.colon}`, y);

  const isPaid = document.state === 'paid';
  const { vat } = document;
  const rate = rateText(vat.vatBp, locale);
  const rows: Array<[string, string, boolean?]> = [
    [t.description, document.description],
    [t.method, t.methods[document.method]],
    [t.state, t.states[document.state]],
  ];
  if (isPaid && document.paidAt) rows.push([t.paidAt, formatDate(document.paidAt, locale)]);
  rows.push([isPaid ? t.amountPaid : t.amountDue, money(document.amount, document.currency, locale), true]);
  if (document.currency === 'btc') rows.push([t.euroValue, money(vat.total, vat.currency, locale)]);
  rows.push([t.excludingVat, money(vat.excludingVat, vat.currency, locale)]);
  rows.push([t.includedVat(rate), money(vat.vat, vat.currency, locale)]);

  rule(doc, y - 8);
  for (const [label, value, bold] of rows) {
    const a = put(doc, label, LEFT, y, 170, { bold: true, color: '#555555' });
    const b = put(doc, value, 230, y, 315, { bold });
    y = Math.max(a, b) + 8;
  }
  rule(doc, y);
  put(doc, t.vatIncluded, LEFT, y + 10, WIDTH, { size: 9, color: '#555555' });

  doc.end();
  return bytes;
}
