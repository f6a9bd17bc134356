import type { Locale } from '@helium/domain/format';
import { MAIL_PRODUCT as PRODUCT, renderMail } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';

/** The sign-in code e-mail, in the user's language, with the code in both subject and body. */
export function loginCodeMail(options: {
  to: string;
  name: string;
  code: string;
  locale: Locale;
  minutes: number;
}): MailMessage {
  const { to, name, code, locale, minutes } = options;
  return locale === 'fr'
    ? renderMail({
        to,
        locale,
        subject: `Votre code de connexion ${PRODUCT} : ${code}`,
        paragraphs: [
          [`Bonjour ${name},`],
          [['Votre code de connexion est : ', { code }]],
          [
            `Il est valable ${minutes} minutes et ne peut servir qu'une fois.`,
            "Si vous n'avez pas demandé ce code, ignorez cet e-mail.",
          ],
        ],
      })
    : renderMail({
        to,
        locale,
        subject: `Your ${PRODUCT} sign-in code: ${code}`,
        paragraphs: [
          [`Hello ${name},`],
          [['Your sign-in code is: ', { code }]],
          [
            `It is valid for ${minutes} minutes and works once.`,
            'If you did not ask for this code, ignore this e-mail.',
          ],
        ],
      });
}
