import type { Locale } from './format.ts';
import type { PayoutCurrency, PayoutMethod } from './payouts.ts';

/*
 * The notes the product itself writes on ledger entries, and how a publisher reads them. A note is stored once, in
 * a fixed form (the ledger is append-only: rows written before a translation existed must read the same); the
 * screen shows it in the reader's language. A note an admin typed is shown as typed.
 */

const METHOD_NAMES: Record<Locale, Record<PayoutMethod, string>> = {
  en: { bitcoin: 'Bitcoin', paypal: 'PayPal', wire: 'bank transfer' },
  fr: { bitcoin: 'Bitcoin', paypal: 'PayPal', wire: 'virement bancaire' },
};

/** A payout method in words: `PayPal`, `bank transfer` / `virement bancaire`. */
export const payoutMethodName = (method: PayoutMethod, locale: Locale): string => METHOD_NAMES[locale][method];

/** The note of a payout's debit, as stored: `payout 12 by paypal in EUR`. */
export const payoutNote = (id: number, method: PayoutMethod, currency: PayoutCurrency | string): string =>
  `payout ${id} by ${method} in ${currency.toUpperCase()}`;

/** The note of a returned payout's credit, as stored: `payout 12 returned: <the admin's reason>`. */
export const payoutReturnedNote = (id: number, reason: string): string => `payout ${id} returned: ${reason}`;

/** The note of the demo's opening balance (and of any balance carried over from an earlier system). */
export const BROUGHT_FORWARD_NOTE = 'Balance brought forward from before this ledger';

const PAYOUT = /^payout (\d+) by (bitcoin|paypal|wire) in ([A-Z]{3})$/;
const RETURNED = /^payout (\d+) returned: ([\s\S]*)$/;

/** A stored note in the reader's language (a note the product did not write comes back as it is). */
export function ledgerNoteText(note: string, locale: Locale): string {
  const payout = PAYOUT.exec(note);
  if (payout) {
    const [, id, method, currency] = payout;
    const how = payoutMethodName(method as PayoutMethod, locale);
    return locale === 'fr' ? `Versement ${id} par ${how} en ${currency}` : `Payout ${id} by ${how} in ${currency}`;
  }
  const returned = RETURNED.exec(note);
  if (returned) {
    const [, id, reason] = returned;
    return locale === 'fr' ? `Versement ${id} retourné\u202f: ${reason}` : `Payout ${id} returned: ${reason}`;
  }
  if (note === BROUGHT_FORWARD_NOTE) {
    return locale === 'fr' ? 'Solde reporté d’avant ce registre' : BROUGHT_FORWARD_NOTE;
  }
  return note;
}
