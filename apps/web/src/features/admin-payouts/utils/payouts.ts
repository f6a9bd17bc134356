import type { TAdminPayout, TUpdatePayoutRequest } from '@helium/contracts';

export const PAYOUT_FILTERS = ['pending', 'paid', 'returned', 'all'] as const;
export type PayoutFilter = (typeof PAYOUT_FILTERS)[number];
export type PayoutDecision = 'paid' | 'returned';

/** The details of every method, in the order of the settings' fields; a key of the catalogues labels each. */
export const DETAIL_ORDER = [
  'address',
  'email',
  'bankName',
  'bic',
  'iban',
  'userName',
  'userAddress',
  'userPhoneNumber',
] as const;
export type DetailKey = (typeof DETAIL_ORDER)[number];

export interface DetailEntry {
  key: string;
  /** Known keys are labelled from the catalogues; others are shown by their name. */
  known: DetailKey | null;
  value: string;
}

/** Where the money goes, as a list: the known fields in order, then any other, empty values left out. */
export function detailEntries(details: TAdminPayout['details']): DetailEntry[] {
  const known = DETAIL_ORDER.filter((key) => (details[key] ?? '').trim() !== '').map((key): DetailEntry => ({
    key,
    known: key,
    value: details[key] ?? '',
  }));
  const others = Object.keys(details)
    .filter((key) => !(DETAIL_ORDER as readonly string[]).includes(key) && (details[key] ?? '').trim() !== '')
    .sort()
    .map((key): DetailEntry => ({ key, known: null, value: details[key] ?? '' }));
  return [...known, ...others];
}

/** The admin's decision as sent, or null while the reference (paid) or the reason (returned) is blank. */
export function decisionRequest(payoutId: number, decision: PayoutDecision, text: string): TUpdatePayoutRequest | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return decision === 'paid'
    ? { payoutId, action: 'paid', reference: trimmed }
    : { payoutId, action: 'returned', reason: trimmed };
}

/** The colour of a payout's state badge. */
export function payoutStateColour(state: TAdminPayout['state']): string {
  switch (state) {
    case 'paid':
      return 'teal';
    case 'returned':
      return 'orange';
    default:
      return 'yellow';
  }
}
