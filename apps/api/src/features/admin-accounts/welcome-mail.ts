import type { Locale } from '@helium/domain/format';
import { MAIL_PRODUCT as PRODUCT, renderMail } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';

/** The welcome e-mail of a user an admin created, in the user's language: how to sign in, from the sign-in page. */
export function welcomeMail(options: {
  to: string;
  name: string;
  brand: string;
  locale: Locale;
  appUrl: string;
}): MailMessage {
  const { to, name, brand, locale, appUrl } = options;
  const signinUrl = `${appUrl}/signin`;
  return locale === 'fr'
    ? renderMail({
        to,
        locale,
        subject: `Bienvenue sur ${PRODUCT}`,
        paragraphs: [
          [`Bonjour ${name},`],
          [`Votre compte ${brand} est prêt sur ${PRODUCT}.`],
          [
            ['Pour vous connecter, ouvrez ', { link: signinUrl }, ` et saisissez cette adresse e-mail (${to}) :`],
            'nous vous enverrons un code à 6 chiffres, sans mot de passe.',
          ],
        ],
      })
    : renderMail({
        to,
        locale,
        subject: `Welcome to ${PRODUCT}`,
        paragraphs: [
          [`Hello ${name},`],
          [`Your ${brand} account is ready on ${PRODUCT}.`],
          [
            ['To sign in, open ', { link: signinUrl }, ` and enter this e-mail address (${to}):`],
            'we will send you a 6-digit code, no password needed.',
          ],
        ],
      });
}
