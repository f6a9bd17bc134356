import type { FastifyInstance } from 'fastify';
import { createSigninLinkCall, getUsersCall } from '@helium/contracts';
import { homePathOf, resolveCurrentAccount } from '@helium/domain';
import { route } from '../../http/route.ts';
import { accountsOf, findUserById } from '../account/users.ts';
import { listUsers } from './admin-users.ts';
import { createSigninLink, SIGNIN_AS_PATH, useSigninLink } from './signin-links.ts';

/** What a refused link shows: nothing about why (unknown, used, expired or another browser's), in both languages. */
const REFUSED_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in link refused</title></head>
<body style="font-family: sans-serif; margin: 3rem">
<h1>This sign-in link cannot be used</h1>
<p>It was already used, it expired, or it was opened in another browser than the admin's. Ask for a new one from Users.</p>
<p lang="fr">Ce lien de connexion ne peut pas servir : il a déjà servi, il a expiré, ou il a été ouvert dans un autre
navigateur que celui de l'admin. Demandez-en un nouveau depuis Utilisateurs.</p>
<p><a href="/">Helium</a></p>
</body></html>`;

/**
 * Admin: Users (searched and paged), the one-time "Sign In ->" links, and the link's GET that opens the user's
 * session in the admin's browser (docs/admin.md).
 */
export default async function adminUsersRoutes(app: FastifyInstance) {
  const { db, clock } = app.ctx;

  route(app, getUsersCall, async ({ body }) => listUsers(db, body));

  route(app, createSigninLinkCall, async ({ actor, body }) => {
    const link = await createSigninLink(db, actor.userId, body.userId, clock.now());
    return { url: link.url, expiresAt: link.expiresAt.toISOString() };
  });

  /**
   * A sign-in link (not a JSON call: the browser opens it in a new tab). Spent once, in the browser of the admin who
   * asked for it, within its minutes: the browser's session becomes the user's, with the admin acting as them (the
   * admin's own session kept for "Back to my account", http/session.ts), and it goes to the user's home. Anything else gets the refusal page (410) and changes nothing.
   */
  app.get<{ Params: { token: string } }>(`${SIGNIN_AS_PATH}/:token`, async (request, reply) => {
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    const now = clock.now();
    const used = await useSigninLink(db, {
      token: request.params.token,
      sessionUserId: request.session?.userId ?? null,
      sessionIsImpersonation: request.session?.impersonatorId != null,
      ip: request.ip,
      now,
    });
    const user = used ? await findUserById(db, used.userId) : undefined;
    if (!used || !user) return reply.code(410).type('text/html; charset=utf-8').send(REFUSED_PAGE);
    await app.startActing(request, reply, used.userId, used.adminId);
    const current = resolveCurrentAccount(user, await accountsOf(db, user.id));
    return reply.redirect(current ? homePathOf(current) : '/', 303);
  });
}
