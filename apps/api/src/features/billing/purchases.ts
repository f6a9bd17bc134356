import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { advertisers, type Database } from '@helium/db';
import { microsToEuros, type Locale } from '@helium/domain';
import { HttpError } from '../../http/errors.ts';
import type { HashIds } from '../../infra/hash-ids.ts';
import type { Mailer } from '../../infra/mailer.ts';
import { findUserById } from '../account/users.ts';
import { bitcoinInstructionsMail } from '../billing-documents/mails.ts';
import { invoiceNumberOf, mailInvoice } from '../billing-documents/documents.ts';
import { charge, couponOutcomeText, invoiceAllowed, picoBtcText, quote, type PurchaseContext } from './purchase.ts';
import { createSale } from './sales.ts';

export interface PurchaseDeps {
  db: Database;
  mailer: Mailer;
  hashIds: HashIds;
  log: FastifyBaseLogger;
  now: Date;
}

export interface Buyer {
  userId: number;
  advertiserId: number;
  /** The language of the answer's texts (the coupon, a refusal). */
  locale: Locale;
}

async function buyerDetails(db: Database, buyer: Buyer) {
  const user = await findUserById(db, buyer.userId);
  const [advertiser] = await db.select().from(advertisers).where(eq(advertisers.id, buyer.advertiserId));
  if (!user || !advertiser) throw new Error('The buyer does not exist');
  return { email: user.email, locale: user.locale as Locale, billingInformation: advertiser.billingInformation };
}

/** A mail that cannot go out does not undo the sale: the screen shows the same details, and the log says so. */
async function sendQuietly(deps: PurchaseDeps, send: () => Promise<void>, saleId: number) {
  try {
    await send();
  } catch (error) {
    deps.log.error({ err: error, saleId }, 'billing: the purchase e-mail could not be sent');
  }
}

/**
 * Bitcoin: a pending sale at the bitcoin price, and the payment instructions by e-mail. Credits come when an
 * admin confirms the payment. The price the browser showed is compared, never used.
 */
export async function buyWithBitcoin(
  deps: PurchaseDeps,
  context: PurchaseContext,
  buyer: Buyer,
  request: { quantity: number; shownPrice?: number; shownPriceInBitcoin?: number | string },
) {
  if (!context.campaign.canBuyInBtc) {
    throw new HttpError(409, 'bitcoinNotAllowed', 'This campaign cannot be paid in Bitcoin.');
  }
  const details = await buyerDetails(deps.db, buyer);
  const priced = charge(context, request.quantity, 'btc');
  if (request.shownPrice !== undefined && Math.abs(request.shownPrice - microsToEuros(priced.amount)) >= 0.005) {
    deps.log.warn(
      { campaignId: context.campaign.id, shown: request.shownPrice, charged: microsToEuros(priced.amount) },
      'billing: the browser showed another bitcoin price; the server price is charged',
    );
  }
  const { sale, coupon } = await createSale(deps.db, {
    context,
    advertiserId: buyer.advertiserId,
    userId: buyer.userId,
    method: 'bitcoin',
    currency: 'btc',
    quantity: request.quantity,
    billingInformation: details.billingInformation,
    locale: buyer.locale,
    now: deps.now,
  });
  const reference = deps.hashIds.encodeSale(sale.id);
  const amountInBtc = picoBtcText(sale.amountInCurrency);
  const address = context.settings.bitcoinAddress;
  await sendQuietly(
    deps,
    () =>
      deps.mailer.send(
        bitcoinInstructionsMail({
          to: details.email,
          locale: details.locale,
          brand: context.brand,
          amountInBtc,
          address,
          reference,
          quantity: sale.quantity,
          isCpc: sale.isCpc,
        }),
      ),
    sale.id,
  );
  const couponStr = couponOutcomeText(coupon, buyer.locale);
  return { status: 'ok' as const, saleId: sale.id, amountInBtc, address, reference, couponStr };
}

/**
 * Direct billing: only when the campaign allows it and the discounted euro price reaches the minimum order, and
 * within the advertiser's ceiling of unpaid invoices (409 beyond it, said in the buyer's language). The credits
 * are added at once, the sale stays unpaid for 30 days, and the invoice goes out as a PDF.
 */
export async function buyWithInvoice(
  deps: PurchaseDeps,
  context: PurchaseContext,
  buyer: Buyer,
  currency: 'eur' | 'usd',
) {
  const quantity = context.campaign.buyQuantity;
  if (!invoiceAllowed(context, quote(context, quantity))) {
    throw new HttpError(
      409,
      'billToPayNotAllowed',
      'Direct billing needs a campaign that allows it and an order of at least the minimum amount.',
    );
  }
  const details = await buyerDetails(deps.db, buyer);
  const { sale, coupon } = await createSale(deps.db, {
    context,
    advertiserId: buyer.advertiserId,
    userId: buyer.userId,
    method: 'invoice',
    currency,
    quantity,
    billingInformation: details.billingInformation,
    locale: buyer.locale,
    now: deps.now,
  });
  await sendQuietly(deps, () => mailInvoice(deps, sale.id), sale.id);
  const couponStr = couponOutcomeText(coupon, buyer.locale);
  return { status: 'ok' as const, saleId: sale.id, invoiceNumber: invoiceNumberOf(sale)!, couponStr };
}
