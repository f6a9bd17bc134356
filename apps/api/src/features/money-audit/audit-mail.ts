import type { MoneyAuditCheckName, TMoneyAuditCheck, TMoneyAuditRow } from '@helium/contracts';
import { formatDateTime, formatNumber, type Locale } from '@helium/domain/format';
import { MAIL_PRODUCT as PRODUCT, renderMail, type MailParagraph } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';

/** Rows of a broken check written in the mail (the screen shows up to MONEY_AUDIT_MAX_ROWS). */
export const MAIL_ROWS_PER_CHECK = 20;

/** What each check promises, as the admins read it (the web app's catalogues say the same: moneyAudit.checks). */
export const CHECK_TITLES: Record<Locale, Record<MoneyAuditCheckName, string>> = {
  en: {
    dailyRevenueSplit: 'Each day, advertiser cost (+ trial cost) = publisher + sales rep + company revenue',
    publisherRevenuePosted: "Each publisher's daily revenue entry = that day's publisher revenue",
    ledgerBalances: "Each account's balance = the sum of its ledger",
    campaignCredits: "Each campaign's credits = bought + granted - spent",
    salesCreditedOnce: 'Each paid sale credited exactly once',
    cancelledSalesReversed: 'Each cancelled sale that was credited is reversed',
    couponOncePerAdvertiser: 'Each coupon used by at most one credited sale per advertiser',
  },
  fr: {
    dailyRevenueSplit: 'Chaque jour, coût annonceurs (+ coût des essais) = revenus éditeurs + commerciaux + société',
    publisherRevenuePosted: 'Chaque écriture de revenus du jour d’un éditeur = ses revenus de ce jour',
    ledgerBalances: 'Le solde de chaque compte = la somme de ses écritures',
    campaignCredits: 'Les crédits de chaque campagne = achetés + offerts - consommés',
    salesCreditedOnce: 'Chaque vente payée créditée une seule fois',
    cancelledSalesReversed: 'Chaque vente annulée qui avait été créditée est contrepassée',
    couponOncePerAdvertiser: 'Chaque coupon utilisé par une seule vente créditée par annonceur',
  },
};

export const checkTitle = (name: string, locale: Locale): string =>
  CHECK_TITLES[locale][name as MoneyAuditCheckName] ?? name;

/** A row on one line: `publisherId: 3, day: 2026-05-01, posted: 1200000, earned: 1200001`. */
export const rowText = (row: TMoneyAuditRow): string =>
  Object.entries(row)
    .map(([key, value]) => `${key}: ${value ?? '-'}`)
    .join(', ');

export interface AuditMailFacts {
  to: string;
  locale: Locale;
  ranAt: Date;
  failed: TMoneyAuditCheck[];
  /** Admin Stats, where the last run shows and can run again. */
  statsUrl: string;
}

function brokenCheck(check: TMoneyAuditCheck, locale: Locale): MailParagraph {
  const shown = check.rows.slice(0, MAIL_ROWS_PER_CHECK);
  const more = check.count - shown.length;
  const count = formatNumber(check.count, locale);
  const header =
    locale === 'fr'
      ? `${count} ligne${check.count > 1 ? 's' : ''} en cause (${check.name})\u202f:`
      : `${count} row${check.count > 1 ? 's' : ''} involved (${check.name}):`;
  const moreText =
    locale === 'fr' ? `... et ${formatNumber(more, locale)} de plus.` : `... and ${formatNumber(more, locale)} more.`;
  return [
    { strong: checkTitle(check.name, locale) },
    header,
    ...shown.map((row) => `- ${rowText(row)}`),
    ...(more > 0 ? [moreText] : []),
  ];
}

/** To every admin, in their language, when a run finds a broken invariant: which ones, and the rows involved. */
export function moneyAuditMail(facts: AuditMailFacts): MailMessage {
  const { to, locale, ranAt, failed, statsUrl } = facts;
  const when = formatDateTime(ranAt, locale);
  const checks = failed.map((check) => brokenCheck(check, locale));
  if (locale === 'fr') {
    return renderMail({
      to,
      locale,
      subject: `${PRODUCT}\u202f: l’audit de l’argent a trouvé ${failed.length} invariant${failed.length > 1 ? 's' : ''} rompu${failed.length > 1 ? 's' : ''}`,
      paragraphs: [
        ['Bonjour,'],
        [
          `L’audit de l’argent du ${when} (UTC) a trouvé ${failed.length} règle${failed.length > 1 ? 's' : ''} non respectée${failed.length > 1 ? 's' : ''}.`,
          'Les montants sont en micro-euros (1 € = 1 000 000).',
        ],
        ...checks,
        [['Le dernier audit est sur Statistiques, qui peut le relancer\u202f: ', { link: statsUrl }]],
      ],
    });
  }
  return renderMail({
    to,
    locale,
    subject: `${PRODUCT}: the money audit found ${failed.length} broken invariant${failed.length > 1 ? 's' : ''}`,
    paragraphs: [
      ['Hello,'],
      [
        `The money audit of ${when} (UTC) found ${failed.length} rule${failed.length > 1 ? 's' : ''} broken.`,
        'Amounts are in micro-euros (1 € = 1,000,000).',
      ],
      ...checks,
      [['The last audit is on Stats, which can run it again: ', { link: statsUrl }]],
    ],
  });
}
