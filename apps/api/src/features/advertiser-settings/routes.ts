import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getAdvertiserSettingsCall, saveAdvertiserSettingsCall } from '@helium/contracts';
import { HttpError } from '../../http/errors.ts';
import { gate } from '../../http/gate.ts';
import { route } from '../../http/route.ts';
import { findUserById } from '../account/users.ts';
import { advertiserSettings, saleReceipt, saveBillingInformation, type ReceiptViewer } from './advertiser-settings.ts';

/** A refusal of the gate as null (signed out, another account type); anything else still fails. */
async function orNull<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof HttpError) return null;
    throw error;
  }
}

/** The advertiser's Settings and receipts (specification 02, sections 2.4 and 7). */
export default async function advertiserSettingsRoutes(app: FastifyInstance) {
  const { db, hashIds } = app.ctx;

  route(app, getAdvertiserSettingsCall, async ({ actor }) =>
    advertiserSettings(db, hashIds, actor.accountId, actor.locale),
  );

  route(app, saveAdvertiserSettingsCall, async ({ actor, body }) => {
    await saveBillingInformation(db, actor.accountId, body.data.address);
    return { status: 'ok' };
  });

  /** Any admin (whatever account is in use), or the advertiser account in use; null for everyone else. */
  async function receiptViewer(request: FastifyRequest): Promise<ReceiptViewer> {
    const signedIn = await orNull(gate(request, 'signedIn'));
    if (!signedIn) return null;
    if ((await findUserById(db, signedIn.userId))?.isAdmin) return { isAdmin: true };
    const advertiser = await orNull(gate(request, 'advertiser'));
    return advertiser ? { isAdmin: false, advertiserId: advertiser.accountId } : null;
  }

  /**
   * The receipt link of the Settings' sales list (a download, not a JSON call): the sale's PDF for its owner or an
   * admin, 404 for anyone else, signed out included (no redirect to sign-in, nothing said about the sale).
   */
  app.get<{ Params: { hashId: string } }>('/advertiser/receipt/:hashId', async (request, reply) => {
    const { filename, pdf } = await saleReceipt(db, hashIds, request.params.hashId, await receiptViewer(request));
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
}
