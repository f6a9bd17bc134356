import type { FastifyInstance } from 'fastify';
import {
  createAccountCall,
  createCampaignCall,
  getAccountsCall,
  grantCampaignCreditsCall,
  updateAccountUserCall,
  updateAdvertiserCall,
  updateAdvertiserCampaignCall,
  updatePublisherCall,
} from '@helium/contracts';
import { route } from '../../http/route.ts';
import {
  createAccount,
  createCampaign,
  grantCredits,
  listAccounts,
  updateAccountUser,
  updateAdvertiser,
  updateCampaign,
  updatePublisher,
} from './admin-accounts.ts';
import { welcomeMail } from './welcome-mail.ts';

/**
 * Admin: onboarding publishers, advertisers, their campaigns and users (docs/admin.md). Every change is audited;
 * those that change what may be served refresh the delivery index at once.
 */
export default async function adminAccountsRoutes(app: FastifyInstance) {
  const { db, clock, mailer, config } = app.ctx;
  const who = (actor: { userId: number }, ip: string) => ({ userId: actor.userId, ip, now: clock.now() });

  route(app, createAccountCall, async ({ actor, body, request }) => {
    const created = await createAccount(db, body, who(actor, request.ip));
    await app.delivery.servingChanged();
    if (created.userCreated) {
      // The account exists whatever the mail does: a failure is logged, and the user can still ask for a code.
      try {
        await mailer.send(
          welcomeMail({
            to: created.user.email,
            name: created.user.name,
            brand: body.brand,
            locale: created.user.locale,
            appUrl: config.appUrl,
          }),
        );
      } catch (error) {
        request.log.error({ err: error, userId: created.userId }, 'admin-accounts: the welcome mail was not sent');
      }
    }
    const { user: _user, ...answer } = created;
    return { status: 'ok' as const, ...answer };
  });

  route(app, getAccountsCall, async ({ actor, body }) => listAccounts(db, body.search, actor.locale));

  route(app, updatePublisherCall, async ({ actor, body, request }) => {
    if (await updatePublisher(db, body, who(actor, request.ip))) await app.delivery.servingChanged();
    return { status: 'ok' as const };
  });

  route(app, updateAdvertiserCall, async ({ actor, body, request }) => {
    if (await updateAdvertiser(db, body, who(actor, request.ip))) await app.delivery.servingChanged();
    return { status: 'ok' as const };
  });

  route(app, updateAdvertiserCampaignCall, async ({ actor, body, request }) => {
    if (await updateCampaign(db, body, who(actor, request.ip))) await app.delivery.servingChanged();
    return { status: 'ok' as const };
  });

  route(app, createCampaignCall, async ({ actor, body, request }) => {
    const campaignId = await createCampaign(db, body, who(actor, request.ip));
    await app.delivery.servingChanged();
    return { status: 'ok' as const, campaignId };
  });

  route(app, grantCampaignCreditsCall, async ({ actor, body, request }) => {
    const remaining = await grantCredits(db, body, who(actor, request.ip));
    await app.delivery.servingChanged();
    return { status: 'ok' as const, remaining };
  });

  route(app, updateAccountUserCall, async ({ actor, body, request }) => {
    await updateAccountUser(db, body, who(actor, request.ip));
    return { status: 'ok' as const };
  });
}
