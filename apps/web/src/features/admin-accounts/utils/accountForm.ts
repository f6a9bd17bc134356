import type { TCreateAccountRequest } from '@helium/contracts';
import { typedNumber } from '../../forms/utils/typedNumber.ts';

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

/** A domain as people paste it: `https://www.Example.com/blog` -> `www.example.com`. */
export function domainOf(typed: string): string {
  return typed
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/[/?#].*$/, '');
}

/** The fields of the form that the create-account call's issues name (`campaign.price` is `price`). */
export const ACCOUNT_FIELDS = ['brand', 'email', 'name', 'domain', 'price', 'trialCredits'] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

/**
 * The create-account request of the form, as typed: the contract checks it before it is sent (a price above 0,
 * trial credits a whole number from 0), and the server again.
 */
export function createRequest(form: AccountForm): TCreateAccountRequest {
  const common = { brand: form.brand, email: form.email, name: form.name, locale: form.locale };
  if (form.kind === 'publisher') {
    return form.medium === 'web'
      ? { kind: 'publisher', ...common, domain: domainOf(form.domain) }
      : { kind: 'publisher', ...common, newsletter: true };
  }
  const trialCredits = typedNumber(form.trialCredits);
  return {
    kind: 'advertiser',
    ...common,
    campaign: { isCpc: form.pricing === 'cpc', isOwl: false, price: typedNumber(form.price) as number },
    ...(trialCredits !== undefined ? { trialCredits } : {}),
  };
}

/** A number field that may be emptied: empty = null (the network default); otherwise as typed (see typedNumber). */
export const orNull = (value: number | string): number | null => typedNumber(value) ?? null;
