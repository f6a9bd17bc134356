import type { TCreateAccountRequest } from '@helium/contracts';

/** The create-account form as typed. */
export interface AccountForm {
  kind: 'publisher' | 'advertiser';
  brand: string;
  email: string;
  name: string;
  locale: 'en' | 'fr';
  /** Publisher: a website (its domain) or a newsletter. */
  medium: 'web' | 'newsletter';
  domain: string;
  /** Advertiser: its first campaign. */
  pricing: 'cpm' | 'cpc';
  price: number | string;
  trialCredits: number | string;
}

export const EMPTY_ACCOUNT_FORM: AccountForm = {
  kind: 'publisher',
  brand: '',
  email: '',
  name: '',
  locale: 'en',
  medium: 'web',
  domain: '',
  pricing: 'cpm',
  price: 2.5,
  trialCredits: '',
};

const toNumber = (value: number | string) => (typeof value === 'number' ? value : Number(value.replace(',', '.')));

/** A domain as people paste it: `https://www.Example.com/blog` -> `www.example.com`. */
export function domainOf(typed: string): string {
  return typed
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[/?#].*$/, '');
}

/** The create-account request of the form (the server checks every field). */
export function createRequest(form: AccountForm): TCreateAccountRequest {
  const common = { brand: form.brand, email: form.email, name: form.name, locale: form.locale };
  if (form.kind === 'publisher') {
    return form.medium === 'web'
      ? { kind: 'publisher', ...common, domain: domainOf(form.domain) }
      : { kind: 'publisher', ...common, newsletter: true };
  }
  const trial = form.trialCredits === '' ? 0 : toNumber(form.trialCredits);
  return {
    kind: 'advertiser',
    ...common,
    campaign: { isCpc: form.pricing === 'cpc', isOwl: false, price: toNumber(form.price) },
    ...(trial > 0 ? { trialCredits: trial } : {}),
  };
}

/** A number field that may be emptied: empty = null (the network default). */
export const orNull = (value: number | string): number | null =>
  value === '' ? null : typeof value === 'number' ? value : Number(value.replace(',', '.'));
