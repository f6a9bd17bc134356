import type { FastifyInstance } from 'fastify';
import {
  applyCouponCall,
  buyWithBillToPayCall,
  buyWithBitcoinCall,
  getPurchaseCall,
  updateBuyCall,
} from '@helium/contracts';
import { route } from '../../http/route.ts';
import { applyCoupon } from './coupons.ts';
import { loadPurchaseContext, purchaseView, storeBuyQuantity } from './purchase.ts';
import { buyWithBitcoin, buyWithInvoice } from './purchases.ts';

/**
 * The advertiser's purchase calls (specification 02, sections 2.2 and 7). Each loads the campaign of the
 * advertiser in use (403 for another's) and prices on the server; credits that change announce themselves to
 * serving.
 */
export default async function billingRoutes(app: FastifyInstance) {
  const { db, clock, mailer, hashIds } = app.ctx;
  const deps = () => ({ db, mailer, hashIds, log: app.log, now: clock.now() });

  route(app, getPurchaseCall, async ({ actor, body }) => {
    const context = await loadPurchaseContext(db, actor.accountId, body.campaignExId);
    return purchaseView(context, actor.locale);
  });

  route(app, updateBuyCall, async ({ actor, body }) => {
    const { supercampaign } = body;
    const context = await loadPurchaseContext(db, actor.accountId, supercampaign.id);
    const quantity = (context.campaign.isCpc ? supercampaign.buy_clicks : supercampaign.buy_impressions) ?? 0;
    await storeBuyQuantity(db, context, quantity);
    return purchaseView(context, actor.locale);
  });

  route(app, applyCouponCall, async ({ actor, body }) => {
    const context = await loadPurchaseContext(db, actor.accountId, body.campaignExId);
    await applyCoupon(db, context, actor.accountId, actor.userId, body.code, clock.now());
    await app.delivery.servingChanged();
    return purchaseView(await loadPurchaseContext(db, actor.accountId, body.campaignExId), actor.locale);
  });

  route(app, buyWithBitcoinCall, async ({ actor, body }) => {
    const context = await loadPurchaseContext(db, actor.accountId, body.campaignExId);
    return buyWithBitcoin(
      deps(),
      context,
      { userId: actor.userId, advertiserId: actor.accountId, locale: actor.locale },
      {
        quantity: body.buyImpressions,
        shownPrice: body.price,
        shownPriceInBitcoin: body.priceInBitcoin,
      },
    );
  });

  route(app, buyWithBillToPayCall, async ({ actor, body }) => {
    const context = await loadPurchaseContext(db, actor.accountId, body.campaignExId);
    const result = await buyWithInvoice(
      deps(),
      context,
      { userId: actor.userId, advertiserId: actor.accountId, locale: actor.locale },
      body.currency,
    );
    await app.delivery.servingChanged();
    return result;
  });
}
