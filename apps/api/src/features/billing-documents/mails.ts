import type { Locale } from '@helium/domain/format';
import { INVOICE_PAYMENT_DAYS } from '@helium/domain/pricing';
import { MAIL_PRODUCT as PRODUCT, renderMail } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';
import { quantityText } from './texts.ts';

/**
 * What to send, in the buyer's language, after a Bitcoin purchase (buy-with-bitcoin): the exact amount (12
 * decimals, as the confirmation shows it), the address and the reference to quote. The credits come once an admin
 * has seen the payment arrive.
 */
export function bitcoinInstructionsMail(options: {
  to: string;
  locale: Locale;
  brand: string;
  /** 12 decimals, e.g. "0.012195121951" (picoBtcText). */
  amountInBtc: string;
  address: string;
  reference: string;
  quantity: number;
  isCpc: boolean;
}): MailMessage {
  const { to, locale, brand, amountInBtc, address, reference, quantity, isCpc } = options;
  const bought = quantityText(quantity, isCpc, locale);
  if (locale === 'fr') {
    return renderMail({
      to,
      locale,
      subject: `${PRODUCT} : instructions de paiement en bitcoins (${reference})`,
      paragraphs: [
        ['Bonjour,'],
        [`Nous avons bien reçu votre demande d'achat de ${bought} pour ${brand}, payable en bitcoins.`],
        [
          ['Montant à envoyer exactement : ', { strong: `${amountInBtc} BTC` }],
          ['Adresse : ', { strong: address }],
          ['Référence : ', { strong: reference }],
        ],
        [
          'Envoyez exactement ce montant à cette adresse et indiquez la référence si votre portefeuille le permet.',
          'Vos crédits seront ajoutés à votre campagne dès que le paiement aura été confirmé.',
        ],
      ],
    });
  }
  return renderMail({
    to,
    locale,
    subject: `${PRODUCT}: your Bitcoin payment instructions (${reference})`,
    paragraphs: [
      ['Hello,'],
      [`We have received your request to buy ${bought} for ${brand}, to be paid in bitcoins.`],
      [
        ['Amount to send, exactly: ', { strong: `${amountInBtc} BTC` }],
        ['Address: ', { strong: address }],
        ['Reference: ', { strong: reference }],
      ],
      [
        'Send exactly this amount to this address and quote the reference if your wallet allows it.',
        'Your credits will be added to your campaign as soon as the payment is confirmed.',
      ],
    ],
  });
}

/**
 * The invoice of a direct-billing purchase (buy-with-bill-to-pay), its PDF attached (renderInvoicePdf), in the
 * buyer's language: pay by bank transfer within 30 days. `amountStr` and `dueDateStr` are already formatted for the
 * buyer (formatSaleAmount, formatDate); `reference` is what the transfer quotes (the sale's hash id; the
 * invoice number when absent).
 */
export function invoiceMail(options: {
  to: string;
  locale: Locale;
  brand: string;
  invoiceNumber: string;
  amountStr: string;
  dueDateStr: string;
  pdf: Buffer;
  reference?: string;
}): MailMessage {
  const { to, locale, brand, invoiceNumber, amountStr, dueDateStr, pdf } = options;
  const reference = options.reference ?? invoiceNumber;
  const attachments = [
    {
      filename: `${locale === 'fr' ? 'facture' : 'invoice'}-${invoiceNumber}.pdf`,
      content: pdf,
      contentType: 'application/pdf',
    },
  ];
  if (locale === 'fr') {
    return renderMail({
      to,
      locale,
      subject: `${PRODUCT} : facture ${invoiceNumber}`,
      paragraphs: [
        ['Bonjour,'],
        [`Veuillez trouver ci-jointe la facture ${invoiceNumber} de ${brand}, d'un montant de ${amountStr} TTC.`],
        [
          `Merci de la régler par virement bancaire sous ${INVOICE_PAYMENT_DAYS} jours, au plus tard le ${dueDateStr},`,
          `en indiquant la référence ${reference}. Les coordonnées bancaires figurent sur la facture.`,
        ],
        ['Vos crédits ont été ajoutés à votre campagne.'],
      ],
      attachments,
    });
  }
  return renderMail({
    to,
    locale,
    subject: `${PRODUCT}: invoice ${invoiceNumber}`,
    paragraphs: [
      ['Hello,'],
      [`Please find attached invoice ${invoiceNumber} for ${brand}, for ${amountStr} including VAT.`],
      [
        `Please pay it by bank transfer within ${INVOICE_PAYMENT_DAYS} days, by ${dueDateStr},`,
        `quoting reference ${reference}. The bank details are on the invoice.`,
      ],
      ['Your credits have been added to your campaign.'],
    ],
    attachments,
  });
}
