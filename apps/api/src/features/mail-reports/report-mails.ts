import type { PayoutBlocker } from '@helium/domain/payouts';
import { pricingName } from '@helium/domain/pricing';
import {
  formatDate,
  formatMicros,
  formatMoney,
  formatNumber,
  formatPercent,
  type Currency,
  type CurrencyRates,
  type Locale,
} from '@helium/domain/format';
import { MAIL_PRODUCT as PRODUCT, renderMail, type MailParagraph } from '../../infra/mail-template.ts';
import type { MailMessage } from '../../infra/mailer.ts';

/*
 * The reports by e-mail (docs/emails.md): the weekly summaries of advertisers and publishers and the low-credit
 * alert, each in the user's language with money in the user's currency, and the one-click unsubscribe link both in
 * the mail and in the `List-Unsubscribe` headers (RFC 8058). Pure: the figures come in, the mail goes out.
 */

/** Who a report goes to, and how its money is shown. */
export interface Recipient {
  to: string;
  name: string;
  locale: Locale;
  currency: Currency;
  rates: CurrencyRates;
}

/** The week a report is about: Monday to Sunday, UTC, as `YYYY-MM-DD`. */
export interface ReportWeek {
  monday: string;
  sunday: string;
}

/** A campaign as the mails name it: no campaign has a name of its own. */
export interface CampaignName {
  id: number;
  brand: string;
  isCpc: boolean;
}

/** The credits a campaign has left, and how long they last at its recent pace. */
export interface CampaignCredits {
  /** Impressions, or clicks when click-priced. */
  units: number;
  /** What they are worth, in euros. */
  euros: number;
  /** Days to empty at the pace of the last CREDIT_PACE_DAYS closed days; null without delivery then. */
  daysLeft: number | null;
}

export interface CampaignWeek extends CampaignName {
  impressions: number;
  clicks: number;
  /** Percent. */
  ctr: number;
  /** null: the campaign reports no leads. */
  leads: number | null;
  /** What it cost over the week, in euros. */
  costs: number;
  credits: CampaignCredits;
}

export interface AdvertiserReportFacts extends Recipient {
  week: ReportWeek;
  campaigns: CampaignWeek[];
  /** Advertiser brands of the user with no campaign. */
  brandsWithoutCampaign: string[];
  activityUrl: string;
  unsubscribeUrl: string;
}

export interface PublisherWeek {
  brand: string;
  impressions: number;
  revenueMicros: number;
  balanceMicros: number;
  minBalanceForPayoutMicros: number;
  /** Why no payout can be asked now (payoutBlocker); null when one can. */
  blocker: PayoutBlocker | null;
}

export interface PublisherReportFacts extends Recipient {
  week: ReportWeek;
  publishers: PublisherWeek[];
  accountingUrl: string;
  unsubscribeUrl: string;
}

export interface LowCreditFacts extends Recipient {
  campaign: CampaignName;
  credits: CampaignCredits & { daysLeft: number };
  addCreditsUrl: string;
  unsubscribeUrl: string;
}

/** RFC 8058: a mailbox provider's Unsubscribe button POSTs `List-Unsubscribe=One-Click` to this address. */
export function unsubscribeHeaders(url: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

const money = (r: Recipient, euros: number) =>
  formatMoney(euros, { locale: r.locale, currency: r.currency, rates: r.rates });
const micros = (r: Recipient, amount: number) =>
  formatMicros(amount, { locale: r.locale, currency: r.currency, rates: r.rates });

export function campaignLabel(campaign: CampaignName, locale: Locale): string {
  const pricing = pricingName(campaign);
  return locale === 'fr'
    ? `${campaign.brand}, campagne n° ${campaign.id} (${pricing})`
    : `${campaign.brand}, campaign #${campaign.id} (${pricing})`;
}

const weekText = (week: ReportWeek, locale: Locale) =>
  `${formatDate(week.monday, locale)} – ${formatDate(week.sunday, locale)}`;

function unitsText(units: number, isCpc: boolean, locale: Locale): string {
  const count = formatNumber(units, locale);
  if (locale === 'fr')
    return isCpc ? `${count} clic${units > 1 ? 's' : ''}` : `${count} impression${units > 1 ? 's' : ''}`;
  return isCpc ? `${count} click${units === 1 ? '' : 's'}` : `${count} impression${units === 1 ? '' : 's'}`;
}

function daysText(days: number, locale: Locale): string {
  const shown = formatNumber(days, locale, 1);
  return locale === 'fr'
    ? `environ ${shown} jour${days >= 2 ? 's' : ''}`
    : `about ${shown} day${days === 1 ? '' : 's'}`;
}

function creditsLines(r: Recipient, campaign: CampaignName, credits: CampaignCredits): MailParagraph {
  const { locale } = r;
  const left = `${unitsText(credits.units, campaign.isCpc, locale)} (${money(r, credits.euros)})`;
  const days =
    credits.daysLeft === null
      ? locale === 'fr'
        ? 'pas de diffusion ces 7 derniers jours'
        : 'no delivery in the last 7 days'
      : credits.units <= 0
        ? locale === 'fr'
          ? 'crédits épuisés'
          : 'out of credits'
        : locale === 'fr'
          ? `${daysText(credits.daysLeft, locale)} au rythme des 7 derniers jours`
          : `${daysText(credits.daysLeft, locale)} at the last 7 days' pace`;
  return locale === 'fr'
    ? [`Crédits restants\u202f: ${left}`, `Épuisés dans\u202f: ${days}`]
    : [`Credits left: ${left}`, `Days to empty: ${days}`];
}

function campaignParagraph(r: Recipient, campaign: CampaignWeek): MailParagraph {
  const { locale } = r;
  const n = (value: number) => formatNumber(value, locale);
  const leads = campaign.leads === null ? (locale === 'fr' ? 'non suivis' : 'not tracked') : n(campaign.leads);
  const figures =
    locale === 'fr'
      ? [
          `Impressions\u202f: ${n(campaign.impressions)}`,
          `Clics\u202f: ${n(campaign.clicks)}`,
          `CTR\u202f: ${formatPercent(campaign.ctr, locale, 2)}`,
          `Leads\u202f: ${leads}`,
          `Dépenses\u202f: ${money(r, campaign.costs)}`,
        ]
      : [
          `Impressions: ${n(campaign.impressions)}`,
          `Clicks: ${n(campaign.clicks)}`,
          `CTR: ${formatPercent(campaign.ctr, locale, 2)}`,
          `Leads: ${leads}`,
          `Spend: ${money(r, campaign.costs)}`,
        ];
  return [{ strong: campaignLabel(campaign, locale) }, ...figures, ...creditsLines(r, campaign, campaign.credits)];
}

function unsubscribeParagraph(locale: Locale, what: 'weekly' | 'lowCredit', url: string): MailParagraph {
  if (locale === 'fr') {
    return [
      what === 'weekly'
        ? 'Vous recevez ce résumé chaque lundi. Vous pouvez le désactiver dans vos Paramètres, ou en un clic\u202f:'
        : 'Vous recevez au plus une alerte par campagne et par semaine. Vous pouvez les désactiver dans vos Paramètres, ou en un clic\u202f:',
      { link: url },
    ];
  }
  return [
    what === 'weekly'
      ? 'You receive this summary each Monday. Turn it off in your Settings, or in one click:'
      : 'You receive at most one alert per campaign per week. Turn them off in your Settings, or in one click:',
    { link: url },
  ];
}

/**
 * A weekly summary, the advertiser's or the publisher's: its paragraphs, then how to turn it off; the week
 * (`weekText`) in its subject.
 */
function weeklyMail(
  facts: Recipient & { unsubscribeUrl: string },
  week: string,
  paragraphs: MailParagraph[],
): MailMessage {
  return renderMail({
    to: facts.to,
    locale: facts.locale,
    subject: facts.locale === 'fr' ? `${PRODUCT}\u202f: votre semaine du ${week}` : `${PRODUCT}: your week of ${week}`,
    paragraphs: [...paragraphs, unsubscribeParagraph(facts.locale, 'weekly', facts.unsubscribeUrl)],
    headers: unsubscribeHeaders(facts.unsubscribeUrl),
  });
}

/** The advertiser's weekly summary: each campaign's figures of the week, its credits and when they run out. */
export function advertiserReportMail(facts: AdvertiserReportFacts): MailMessage {
  const { locale } = facts;
  const fr = locale === 'fr';
  const week = weekText(facts.week, locale);
  const paragraphs: MailParagraph[] = [
    [fr ? `Bonjour ${facts.name},` : `Hello ${facts.name},`],
    [
      fr
        ? `Voici le résumé de vos campagnes pour la semaine du ${week} (UTC).`
        : `Here is the summary of your campaigns for the week of ${week} (UTC).`,
    ],
    ...facts.campaigns.map((campaign) => campaignParagraph(facts, campaign)),
    ...facts.brandsWithoutCampaign.map((brand): MailParagraph => [
      { strong: brand },
      fr ? 'Aucune campagne pour le moment.' : 'No campaign yet.',
    ]),
    [
      [
        fr ? 'Tous les chiffres sont sur la page Activité\u202f: ' : 'Every figure is on the Activity page: ',
        { link: facts.activityUrl },
      ],
    ],
  ];
  return weeklyMail(facts, week, paragraphs);
}

function payoutText(r: Recipient, publisher: PublisherWeek): string {
  const fr = r.locale === 'fr';
  switch (publisher.blocker) {
    case null:
      return fr ? 'Vous pouvez demander un versement.' : 'You can request a payout.';
    case 'pendingPayout':
      return fr ? 'Un versement est en cours.' : 'A payout is pending.';
    case 'belowMinimum': {
      const minimum = micros(r, publisher.minBalanceForPayoutMicros);
      return fr
        ? `Un versement peut être demandé à partir d'un solde de ${minimum}.`
        : `A payout can be requested from a balance of ${minimum}.`;
    }
    case 'methodNotAuthorized':
      return fr
        ? "Aucun moyen de versement n'est encore autorisé pour ce compte\u202f: contactez-nous."
        : 'No payout method is authorised for this account yet: contact us.';
    case 'methodNotConfigured':
      return fr
        ? 'Renseignez vos coordonnées de versement dans les Paramètres pour demander un versement.'
        : 'Set up your payout details in Settings to request a payout.';
  }
}

/** The publisher's weekly summary: each site's or newsletter's impressions and revenue, its balance and payout. */
export function publisherReportMail(facts: PublisherReportFacts): MailMessage {
  const { locale } = facts;
  const fr = locale === 'fr';
  const week = weekText(facts.week, locale);
  const n = (value: number) => formatNumber(value, locale);
  const paragraphs: MailParagraph[] = [
    [fr ? `Bonjour ${facts.name},` : `Hello ${facts.name},`],
    [fr ? `Voici le résumé de la semaine du ${week} (UTC).` : `Here is the summary of the week of ${week} (UTC).`],
    ...facts.publishers.map((publisher): MailParagraph => [
      { strong: publisher.brand },
      fr ? `Impressions\u202f: ${n(publisher.impressions)}` : `Impressions: ${n(publisher.impressions)}`,
      fr
        ? `Revenus\u202f: ${micros(facts, publisher.revenueMicros)}`
        : `Revenue: ${micros(facts, publisher.revenueMicros)}`,
      fr
        ? `Solde\u202f: ${micros(facts, publisher.balanceMicros)}`
        : `Balance: ${micros(facts, publisher.balanceMicros)}`,
      payoutText(facts, publisher),
    ]),
    [[fr ? 'Votre comptabilité\u202f: ' : 'Your accounting: ', { link: facts.accountingUrl }]],
  ];
  return weeklyMail(facts, week, paragraphs);
}

/** A campaign whose credits will last under LOW_CREDIT_DAYS at its recent pace: how long, and Add credits. */
export function lowCreditMail(facts: LowCreditFacts): MailMessage {
  const { locale, campaign, credits } = facts;
  const fr = locale === 'fr';
  const label = campaignLabel(campaign, locale);
  const empty = credits.units <= 0;
  const days = daysText(credits.daysLeft, locale);
  const subject = empty
    ? fr
      ? `${PRODUCT}\u202f: ${label} n'a plus de crédits`
      : `${PRODUCT}: ${label} is out of credits`
    : fr
      ? `${PRODUCT}\u202f: les crédits de ${label} s'épuisent dans ${days}`
      : `${PRODUCT}: the credits of ${label} run out in ${days}`;
  const situation = empty
    ? fr
      ? `${label} n'a plus de crédits\u202f: ses annonces ne sont plus diffusées.`
      : `${label} is out of credits: its ads are no longer shown.`
    : fr
      ? `Au rythme des 7 derniers jours, les crédits de ${label} s'épuisent dans ${days}.`
      : `At the pace of the last 7 days, the credits of ${label} run out in ${days}.`;
  const left = `${unitsText(credits.units, campaign.isCpc, locale)} (${money(facts, credits.euros)})`;
  return renderMail({
    to: facts.to,
    locale,
    subject,
    paragraphs: [
      [fr ? `Bonjour ${facts.name},` : `Hello ${facts.name},`],
      [situation, fr ? `Crédits restants\u202f: ${left}` : `Credits left: ${left}`],
      [
        [
          fr ? 'Ajoutez des crédits pour la garder en ligne\u202f: ' : 'Add credits to keep it running: ',
          { link: facts.addCreditsUrl },
        ],
      ],
      unsubscribeParagraph(locale, 'lowCredit', facts.unsubscribeUrl),
    ],
    headers: unsubscribeHeaders(facts.unsubscribeUrl),
  });
}
