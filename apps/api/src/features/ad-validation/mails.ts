import type { Locale } from '@helium/domain/format';
import { MAIL_PRODUCT as PRODUCT, renderMail } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';

/** Tells the advertiser the admin's decision on a submitted ad, in the advertiser's language. */
export function adDecisionMail(options: {
  to: string;
  name: string;
  locale: Locale;
  adId: number;
  brand: string;
  isAccepted: boolean;
  adsUrl: string;
}): MailMessage {
  const { to, name, locale, adId, brand, isAccepted, adsUrl } = options;
  if (locale === 'fr') {
    return renderMail({
      to,
      locale,
      subject: isAccepted
        ? `${PRODUCT} : votre annonce n°${adId} est validée`
        : `${PRODUCT} : votre annonce n°${adId} est refusée`,
      paragraphs: [
        [`Bonjour ${name},`],
        [
          isAccepted
            ? `Votre annonce n°${adId} (${brand}) a été validée. Elle sera proposée aux éditeurs du réseau.`
            : `Votre annonce n°${adId} (${brand}) a été refusée. Merci d'envoyer une autre annonce.`,
        ],
        [['Vos annonces : ', { link: adsUrl }]],
      ],
    });
  }
  return renderMail({
    to,
    locale,
    subject: isAccepted ? `${PRODUCT}: your ad #${adId} is approved` : `${PRODUCT}: your ad #${adId} was declined`,
    paragraphs: [
      [`Hello ${name},`],
      [
        isAccepted
          ? `Your ad #${adId} (${brand}) has been approved. It will now be offered to the network's publishers.`
          : `Your ad #${adId} (${brand}) was declined. Please upload another ad.`,
      ],
      [['Your ads: ', { link: adsUrl }]],
    ],
  });
}

/** Asks a publisher to accept or decline an ad on its site through a hash link, in the publisher's language. */
export function publisherValidationRequestMail(options: {
  to: string;
  name: string;
  locale: Locale;
  publisherBrand: string;
  advertiserBrand: string;
  link: string;
  hours: number;
}): MailMessage {
  const { to, name, locale, publisherBrand, advertiserBrand, link, hours } = options;
  if (locale === 'fr') {
    return renderMail({
      to,
      locale,
      subject: `${PRODUCT} : nouvelle annonce à valider pour ${publisherBrand}`,
      paragraphs: [
        [`Bonjour ${name},`],
        [
          `Une nouvelle annonce de ${advertiserBrand} peut être diffusée sur ${publisherBrand}.`,
          ['Acceptez-la ou refusez-la ici : ', { link }],
        ],
        [`Sans réponse de votre part dans les ${hours} heures, elle sera considérée comme acceptée.`],
      ],
    });
  }
  return renderMail({
    to,
    locale,
    subject: `${PRODUCT}: a new ad to validate for ${publisherBrand}`,
    paragraphs: [
      [`Hello ${name},`],
      [
        `A new ad from ${advertiserBrand} may be shown on ${publisherBrand}.`,
        ['Accept or decline it here: ', { link }],
      ],
      [`Without an answer within ${hours} hours it counts as accepted.`],
    ],
  });
}
