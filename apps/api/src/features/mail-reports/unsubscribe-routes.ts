import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Locale } from '@helium/domain/format';
import { MAIL_PRODUCT } from '../../infra/mail-template.ts';
import { findUserById } from '../account/users.ts';
import {
  PREFERENCE_OF_TOPIC,
  readUnsubscribeToken,
  updateMailPreferences,
  type UnsubscribeTopic,
} from './unsubscribe.ts';

/*
 * The one-click unsubscribe address of the reports (RFC 8058), outside the API calls' scope: no session and no
 * anti-forgery token, the signed token in the address is the authority. GET shows a page asking to confirm (link
 * checkers and mail scanners open links: a GET changes nothing); POST unsubscribes, whatever its body: a mailbox
 * provider's button sends `List-Unsubscribe=One-Click`, the page's button the same form field.
 */

const TEXTS: Record<
  Locale,
  {
    title: string;
    button: string;
    ask: Record<UnsubscribeTopic, (email: string) => string>;
    done: Record<UnsubscribeTopic, (email: string) => string>;
    settings: string;
  }
> = {
  en: {
    title: 'Unsubscribe',
    button: 'Unsubscribe',
    ask: {
      weekly: (email) => `Stop sending the weekly summary to ${email}?`,
      'low-credit': (email) => `Stop sending the low-credit alerts to ${email}?`,
    },
    done: {
      weekly: (email) => `Done: the weekly summary will no longer be sent to ${email}.`,
      'low-credit': (email) => `Done: the low-credit alerts will no longer be sent to ${email}.`,
    },
    settings: 'You can turn them on again in Settings.',
  },
  fr: {
    title: 'Désabonnement',
    button: 'Me désabonner',
    ask: {
      weekly: (email) => `Ne plus envoyer le résumé hebdomadaire à ${email}\u202f?`,
      'low-credit': (email) => `Ne plus envoyer les alertes de crédits bas à ${email}\u202f?`,
    },
    done: {
      weekly: (email) => `C'est fait\u202f: le résumé hebdomadaire ne sera plus envoyé à ${email}.`,
      'low-credit': (email) => `C'est fait\u202f: les alertes de crédits bas ne seront plus envoyées à ${email}.`,
    },
    settings: 'Vous pouvez les réactiver dans vos Paramètres.',
  },
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A page of the mails' look: the product's name, then the body (already escaped HTML). */
function page(locale: Locale, title: string, body: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${MAIL_PRODUCT}</title>
</head>
<body style="margin:0;padding:24px 12px;background:#f8f9fa;font:16px/1.5 Arial,Helvetica,sans-serif;color:#212529">
<main style="max-width:560px;margin:0 auto;background:#fff;border:1px solid #dee2e6;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;font-weight:700;font-size:18px;color:#5f3dc4">${MAIL_PRODUCT}</p>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

const NOT_VALID = page(
  'en',
  'Unsubscribe',
  `<p lang="en">This unsubscribe link is not valid.</p>
<p lang="fr">Ce lien de désabonnement n'est pas valide.</p>`,
);

const noStore = (reply: FastifyReply) =>
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').header('x-robots-tag', 'noindex');

export default async function unsubscribeRoutes(app: FastifyInstance) {
  const { db, config } = app.ctx;
  // Any body (form fields, multipart, text): the token decides, the body is not read.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => done(null, body));

  async function find(token: string) {
    const read = readUnsubscribeToken(config.sessionSecret, token);
    if (!read) return null;
    const user = await findUserById(db, read.userId);
    return user ? { user, topic: read.topic } : null;
  }

  app.get<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    const found = await find(request.params.token);
    if (!found) return noStore(reply).code(404).send(NOT_VALID);
    const { user, topic } = found;
    const texts = TEXTS[user.locale];
    return noStore(reply).send(
      page(
        user.locale,
        texts.title,
        `<p>${escapeHtml(texts.ask[topic](user.email))}</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" style="font:600 16px Arial,Helvetica,sans-serif;color:#fff;background:#5f3dc4;border:0;border-radius:6px;padding:10px 18px;cursor:pointer">${escapeHtml(texts.button)}</button>
</form>`,
      ),
    );
  });

  app.post<{ Params: { token: string } }>('/unsubscribe/:token', async (request, reply) => {
    const found = await find(request.params.token);
    if (!found) return noStore(reply).code(404).send(NOT_VALID);
    const { user, topic } = found;
    await updateMailPreferences(db, user.id, { [PREFERENCE_OF_TOPIC[topic]]: false });
    request.log.info({ userId: user.id, topic }, 'unsubscribed from a report mail');
    const texts = TEXTS[user.locale];
    return noStore(reply).send(
      page(
        user.locale,
        texts.title,
        `<p role="status">${escapeHtml(texts.done[topic](user.email))}</p>
<p>${escapeHtml(texts.settings)}</p>`,
      ),
    );
  });
}
