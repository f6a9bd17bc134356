import type { FastifyInstance } from 'fastify';
import {
  createCouponCall,
  getCouponsCall,
  getOutstandingInvoicesCall,
  getSalesCall,
  updateSaleCall,
} from '@helium/contracts';
import { route } from '../../http/route.ts';
import { createCoupon, listCoupons } from './coupons.ts';
import { listOutstandingInvoices } from './invoice-limit.ts';
import { confirmPayment } from './late-payments.ts';
import { adminSaleView } from './sale-view.ts';
import { cancelSale, findSaleWithBrand, listSales } from './sales.ts';

/**
 * Admin: payments to confirm (pending Bitcoin sales, unpaid invoices, payments that arrived after a cancellation),
 * what advertisers owe on invoices, and coupons; every change audited.
 */
export default async function adminBillingRoutes(app: FastifyInstance) {
  const { db, clock, hashIds, mailer, config } = app.ctx;

  route(app, getSalesCall, async ({ actor, body }) => {
    const now = clock.now();
    const rows = await listSales(db, body.state);
    return { sales: rows.map(({ sale, brand }) => adminSaleView(sale, brand, actor.locale, hashIds, now)) };
  });

  route(app, updateSaleCall, async ({ actor, body, request }) => {
    const admin = { userId: actor.userId, ip: request.ip, now: clock.now() };
    const lateDeps = { db, mailer, hashIds, log: request.log, appUrl: config.appUrl };
    const sale =
      body.action === 'confirm'
        ? await confirmPayment(lateDeps, body.saleId, admin)
        : await cancelSale(db, body.saleId, admin);
    // A confirmed Bitcoin sale adds credits, a cancelled invoice takes them back: serving follows at once.
    await app.delivery.servingChanged();
    const { brand } = (await findSaleWithBrand(db, sale.id))!;
    return { status: 'ok' as const, sale: adminSaleView(sale, brand, actor.locale, hashIds, admin.now) };
  });

  route(app, getOutstandingInvoicesCall, async ({ actor }) => ({
    advertisers: await listOutstandingInvoices(db, actor.locale, clock.now()),
  }));

  route(app, getCouponsCall, async () => ({ coupons: await listCoupons(db) }));

  route(app, createCouponCall, async ({ actor, body, request }) => {
    const coupon = await createCoupon(db, body, { userId: actor.userId, ip: request.ip, now: clock.now() });
    return { status: 'ok' as const, coupon };
  });
}
