import type { Locale } from '@helium/domain/format';
import type { PayoutMethod } from '@helium/domain/payouts';
import { payoutMethodName } from '@helium/domain/ledger-notes';
import { MAIL_PRODUCT as PRODUCT, renderMail } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';

export interface PayoutMailFacts {
  to: string;
  locale: Locale;
  brand: string;
  method: PayoutMethod;
  /** What was sent, in its currency, formatted for the publisher (formatAmountInCurrency). */
  amountStr: string;
}

/** An admin sent the payout: what, how, and the transfer reference, in the publisher's language. */
export function payoutPaidMail(facts: PayoutMailFacts & { reference: string }): MailMessage {
  const { to, locale, brand, method, amountStr, reference } = facts;
  const how = payoutMethodName(method, locale);
  if (locale === 'fr') {
    return renderMail({
      to,
      locale,
      subject: `${PRODUCT} : votre versement de ${amountStr} a été envoyé`,
      paragraphs: [
        ['Bonjour,'],
        [
          `Votre versement de ${amountStr} pour ${brand} a été envoyé par ${how}.`,
          ['Référence du transfert : ', { strong: reference }],
        ],
        ['Il apparaît dans la page Comptabilité de votre compte.'],
      ],
    });
  }
  return renderMail({
    to,
    locale,
    subject: `${PRODUCT}: your payout of ${amountStr} has been sent`,
    paragraphs: [
      ['Hello,'],
      [
        `Your payout of ${amountStr} for ${brand} has been sent by ${how}.`,
        ['Transfer reference: ', { strong: reference }],
      ],
      ['It is listed on the Accounting page of your account.'],
    ],
  });
}

/**
 * The payout came back (or could not be sent): the reason, and that the amount debited is in the balance again
 * (`restoredStr`, euros formatted for the publisher).
 */
export function payoutReturnedMail(facts: PayoutMailFacts & { reason: string; restoredStr: string }): MailMessage {
  const { to, locale, brand, method, amountStr, reason, restoredStr } = facts;
  const how = payoutMethodName(method, locale);
  if (locale === 'fr') {
    return renderMail({
      to,
      locale,
      subject: `${PRODUCT} : votre versement de ${amountStr} n'a pas pu être effectué`,
      paragraphs: [
        ['Bonjour,'],
        [`Votre versement de ${amountStr} pour ${brand} par ${how} n'a pas pu être effectué.`, `Motif : ${reason}`],
        [
          `Votre solde a été rétabli : ${restoredStr} y ont été recrédités.`,
          'Vérifiez vos coordonnées de paiement dans les Paramètres, puis demandez un nouveau versement.',
        ],
      ],
    });
  }
  return renderMail({
    to,
    locale,
    subject: `${PRODUCT}: your payout of ${amountStr} was returned`,
    paragraphs: [
      ['Hello,'],
      [
        `Your payout of ${amountStr} for ${brand} by ${how} could not be completed and was returned.`,
        `Reason: ${reason}`,
      ],
      [
        `Your balance has been restored: ${restoredStr} was credited back.`,
        'Check your payout details in Settings, then request a new payout.',
      ],
    ],
  });
}
