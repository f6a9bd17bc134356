import type { Locale } from '@helium/domain/format';
import type { LatePaymentOutcome } from '@helium/domain/pricing';
import { MAIL_PRODUCT as PRODUCT, renderMail } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';

/**
 * To every admin, in the admin's language: a payment arrived for a sale cancelled meanwhile, and what became of it
 * (credited to the campaign, refunded through Stripe, or to be refunded by hand).
 */
export function latePaymentMail(options: {
  to: string;
  locale: Locale;
  saleId: number;
  reference: string;
  brand: string;
  method: 'card' | 'bitcoin' | 'invoice';
  amountStr: string;
  quantityStr: string;
  outcome: LatePaymentOutcome;
  refundId: string | null;
  paymentsUrl: string;
}): MailMessage {
  const { to, locale, saleId, reference, brand, amountStr, quantityStr, outcome, refundId, paymentsUrl } = options;
  if (locale === 'fr') {
    const method = { card: 'par carte', bitcoin: 'en bitcoins', invoice: 'sur facture' }[options.method];
    const what = {
      credited: `La campagne a été créditée de ${quantityStr}\u202f: l'argent a été encaissé. Rien d'autre à faire.`,
      refunded: `Le paiement a été remboursé par Stripe (remboursement ${refundId ?? ''}). Rien d'autre à faire.`,
      refundByHand: `Les réglages du réseau demandent un remboursement\u202f: renvoyez ${amountStr} à l'annonceur à la main.`,
    }[outcome];
    return renderMail({
      to,
      locale,
      subject: `${PRODUCT}\u202f: paiement reçu pour la vente annulée ${saleId}`,
      paragraphs: [
        ['Bonjour,'],
        [`Un paiement ${method} de ${amountStr} est arrivé pour la vente ${saleId} de ${brand}, annulée auparavant.`],
        [['Référence\u202f: ', { strong: reference }]],
        [what],
        [['Paiements\u202f: ', { link: paymentsUrl }]],
      ],
    });
  }
  const method = { card: 'card', bitcoin: 'Bitcoin', invoice: 'invoice' }[options.method];
  const what = {
    credited: `The campaign was credited with ${quantityStr}: the money was taken. Nothing else to do.`,
    refunded: `The payment was refunded through Stripe (refund ${refundId ?? ''}). Nothing else to do.`,
    refundByHand: `The network settings say refund: send ${amountStr} back to the advertiser by hand.`,
  }[outcome];
  return renderMail({
    to,
    locale,
    subject: `${PRODUCT}: payment received for cancelled sale ${saleId}`,
    paragraphs: [
      ['Hello,'],
      [`A ${method} payment of ${amountStr} arrived for sale ${saleId} of ${brand}, which had been cancelled.`],
      [['Reference: ', { strong: reference }]],
      [what],
      [['Payments: ', { link: paymentsUrl }]],
    ],
  });
}
