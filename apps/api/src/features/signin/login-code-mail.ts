import type { Locale } from '@helium/domain/format';
import type { MailMessage } from '../../infra/mailer.ts';

const PRODUCT = 'Helium Ads';

/** The sign-in code e-mail, in the user's language, with the code in both subject and body. */
export function loginCodeMail(options: { to: string; name: string; code: string; locale: Locale; minutes: number }) {
  const { to, name, code, locale, minutes } = options;
  const message: MailMessage =
    locale === 'fr'
      ? {
          to,
          subject: `Votre code de connexion ${PRODUCT} : ${code}`,
          text: [
            `Bonjour ${name},`,
            '',
            `Votre code de connexion est : ${code}`,
            '',
            `Il est valable ${minutes} minutes et ne peut servir qu'une fois.`,
            "Si vous n'avez pas demandé ce code, ignorez cet e-mail.",
            '',
            PRODUCT,
          ].join('\n'),
        }
      : {
          to,
          subject: `Your ${PRODUCT} sign-in code: ${code}`,
          text: [
            `Hello ${name},`,
            '',
            `Your sign-in code is: ${code}`,
            '',
            `It is valid for ${minutes} minutes and works once.`,
            'If you did not ask for this code, ignore this e-mail.',
            '',
            PRODUCT,
          ].join('\n'),
        };
  return message;
}
