import type { Locale } from '@helium/domain/format';
import type { MailMessage } from '../../infra/mailer.ts';

const PRODUCT = 'Helium Ads';

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
    ? {
        to,
        subject: `Bienvenue sur ${PRODUCT}`,
        text: [
          `Bonjour ${name},`,
          '',
          `Votre compte ${brand} est prêt sur ${PRODUCT}.`,
          '',
          `Pour vous connecter, ouvrez ${signinUrl} et saisissez cette adresse e-mail (${to}) :`,
          'nous vous enverrons un code à 6 chiffres, sans mot de passe.',
          '',
          PRODUCT,
        ].join('\n'),
      }
    : {
        to,
        subject: `Welcome to ${PRODUCT}`,
        text: [
          `Hello ${name},`,
          '',
          `Your ${brand} account is ready on ${PRODUCT}.`,
          '',
          `To sign in, open ${signinUrl} and enter this e-mail address (${to}):`,
          'we will send you a 6-digit code, no password needed.',
          '',
          PRODUCT,
        ].join('\n'),
      };
}
