import { formatMicros, formatMoney, formatNumber, formatPercent, type Locale } from '@helium/domain';
import { formatAmountInCurrency, formatSaleAmount } from '@helium/domain/invoice';

/*
 * An audit entry's details as the admin reads them: each key named in the admin's language, each value in its unit
 * (euros, percents, counts) rather than as stored (micro-euros, basis points). The rows keep what was written; only
 * the reading changes, so older entries read the same way.
 */

/** How a detail's value is stored. */
type Unit = 'microEuros' | 'euros' | 'basisPoints' | 'percent' | 'count' | 'inCurrency' | 'rate';

/** The unit of a key wherever it appears, unless its action says otherwise below. */
const UNIT_OF_KEY: Record<string, Unit> = {
  amount: 'microEuros',
  fee: 'microEuros',
  transferFee: 'microEuros',
  invoiceLimit: 'microEuros',
  minBalanceForPayout: 'microEuros',
  cpm: 'microEuros',
  cpc: 'microEuros',
  price: 'euros',
  amountInCurrency: 'inCurrency',
  quantity: 'count',
  freeQuantity: 'count',
  trialCredits: 'count',
  remainingImpressions: 'count',
  remainingClicks: 'count',
  pauseDailyImpressions: 'count',
  minImpressionsToAutoPilot: 'count',
  minImpressionsForCtrRank: 'count',
  usdToEur: 'rate',
  btcToEur: 'rate',
};

/** Network settings are written as their screen shows them: amounts in euros, shares in percent. */
const UNIT_BY_ACTION: Record<string, Record<string, Unit>> = {
  'networkSettings.update': {
    minBalanceForPayout: 'euros',
    transferFeePaypal: 'euros',
    transferFeeWire: 'euros',
    billToPayMinOrder: 'euros',
  },
};

function unitOf(action: string, key: string): Unit | undefined {
  return (
    UNIT_BY_ACTION[action]?.[key] ??
    UNIT_OF_KEY[key] ??
    (key.endsWith('Bp') ? 'basisPoints' : key.endsWith('Pct') ? 'percent' : undefined)
  );
}

const LABELS: Record<Locale, Record<string, string>> = {
  en: {
    amount: 'amount',
    amountInCurrency: 'amount in currency',
    fee: 'fee',
    currency: 'currency',
    method: 'method',
    quantity: 'quantity',
    code: 'code',
    percentOffBp: 'discount',
    freeQuantity: 'free quantity',
    publisherId: 'publisher',
    publisherIds: 'publishers',
    userId: 'user',
    campaignId: 'campaign',
    advertiserId: 'advertiser',
    linkId: 'link',
    brand: 'brand',
    trialCredits: 'trial credits',
    userCreated: 'user created',
    changes: 'changes',
    reference: 'reference',
    reason: 'reason',
    revenueShareBp: 'revenue share',
    minBalanceForPayout: 'minimum balance for payout',
    invoiceLimit: 'invoice limit',
    isCpc: 'CPC',
    price: 'price',
    kind: 'kind',
    note: 'note',
  },
  fr: {
    amount: 'montant',
    amountInCurrency: 'montant en devise',
    fee: 'frais',
    currency: 'devise',
    method: 'méthode',
    quantity: 'quantité',
    code: 'code',
    percentOffBp: 'remise',
    freeQuantity: 'quantité offerte',
    publisherId: 'éditeur',
    publisherIds: 'éditeurs',
    userId: 'utilisateur',
    campaignId: 'campagne',
    advertiserId: 'annonceur',
    linkId: 'lien',
    brand: 'marque',
    trialCredits: "crédits d'essai",
    userCreated: 'utilisateur créé',
    changes: 'modifications',
    reference: 'référence',
    reason: 'motif',
    revenueShareBp: 'part des revenus',
    minBalanceForPayout: 'solde minimum pour un versement',
    invoiceLimit: 'plafond de facturation',
    isCpc: 'CPC',
    price: 'prix',
    kind: 'type',
    note: 'note',
  },
};

const YES_NO: Record<Locale, [string, string]> = { en: ['yes', 'no'], fr: ['oui', 'non'] };

/** `publisherRevenueSharePct` -> `publisher revenue share`: a key no label names yet still reads as words. */
function words(key: string): string {
  return key
    .replace(/(Pct|Bp)$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

interface Reading {
  action: string;
  locale: Locale;
  /** The entry's currency, for an amount in it. */
  currency: unknown;
}

function valueText(key: string, value: unknown, reading: Reading): string {
  const { locale } = reading;
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return YES_NO[locale][value ? 0 : 1];
  if (Array.isArray(value)) {
    return value.every((item) => typeof item !== 'object' || item === null)
      ? value.map((item) => valueText(key, item, reading)).join(', ')
      : JSON.stringify(value);
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('from' in record && 'to' in record && Object.keys(record).length === 2) {
      return `${valueText(key, record.from, reading)} → ${valueText(key, record.to, reading)}`;
    }
    return JSON.stringify(value);
  }
  if (typeof value !== 'number') return String(value);
  switch (unitOf(reading.action, key)) {
    case 'microEuros':
      return formatMicros(value, { locale });
    case 'euros':
      return formatMoney(value, { locale });
    case 'basisPoints':
      return formatPercent(value / 100, locale, 2);
    case 'percent':
      return formatPercent(value, locale, 2);
    case 'count':
      return formatNumber(value, locale);
    case 'rate':
      return formatNumber(value, locale, 8).replace(/[.,]?0+$/, '');
    case 'inCurrency': {
      const currency = String(reading.currency ?? 'eur').toLowerCase();
      if (currency !== 'usd' && currency !== 'btc' && currency !== 'eur') return formatNumber(value, locale);
      // A sale's amount as its e-mail and receipt show it; a payout's as the publisher's screens do.
      return reading.action.startsWith('sale.')
        ? formatSaleAmount(value, currency, locale)
        : formatAmountInCurrency(value, currency, locale);
    }
    default:
      // Ids and other plain numbers: no grouping, an id is a name.
      return /(^id|Id|Ids)$/.test(key) ? `#${value}` : String(value);
  }
}

/** Longest details text an entry shows. */
const DETAILS_CHARS = 300;

/** An entry's details (a JSON object or value) as one short line in the admin's language: `label: value, ...`. */
export function detailsText(action: string, details: unknown, locale: Locale): string {
  if (details === null || details === undefined) return '';
  const record = typeof details === 'object' && !Array.isArray(details) ? (details as Record<string, unknown>) : null;
  const reading: Reading = { action, locale, currency: record?.currency };
  // French sets a colon apart with a (non-breaking) space.
  const label = (key: string) => `${LABELS[locale][key] ?? words(key)}${locale === 'fr' ? '\u202f:' : ':'}`;
  const text = record
    ? Object.entries(record)
        .map(([key, value]) =>
          key === 'changes' && value && typeof value === 'object' && !Array.isArray(value)
            ? Object.entries(value as Record<string, unknown>)
                .map(([field, change]) => `${label(field)} ${valueText(field, change, reading)}`)
                .join(', ')
            : `${label(key)} ${valueText(key, value, reading)}`,
        )
        .join(', ')
    : typeof details === 'string'
      ? details
      : JSON.stringify(details);
  return text.length > DETAILS_CHARS ? `${text.slice(0, DETAILS_CHARS - 1)}…` : text;
}
