import { describe, expect, it } from 'vitest';
import { BROUGHT_FORWARD_NOTE, ledgerNoteText, payoutNote, payoutReturnedNote } from '../src/ledger-notes.ts';

describe('ledger notes', () => {
  it('are stored in one fixed form and read in the reader’s language', () => {
    expect(payoutNote(2, 'paypal', 'eur')).toBe('payout 2 by paypal in EUR');
    expect(ledgerNoteText(payoutNote(2, 'paypal', 'eur'), 'en')).toBe('Payout 2 by PayPal in EUR');
    expect(ledgerNoteText(payoutNote(2, 'wire', 'usd'), 'fr')).toBe('Versement 2 par virement bancaire en USD');
    expect(ledgerNoteText(payoutReturnedNote(7, 'IBAN: closed'), 'fr')).toBe(
      'Versement 7 retourné\u202f: IBAN: closed',
    );
    expect(ledgerNoteText(BROUGHT_FORWARD_NOTE, 'fr')).toBe('Solde reporté d’avant ce registre');
    expect(ledgerNoteText(BROUGHT_FORWARD_NOTE, 'en')).toBe(BROUGHT_FORWARD_NOTE);
  });

  it('leaves a note an admin typed as it is', () => {
    expect(ledgerNoteText('goodwill gesture', 'fr')).toBe('goodwill gesture');
    expect(ledgerNoteText('payout 2 by carrier pigeon in EUR', 'fr')).toBe('payout 2 by carrier pigeon in EUR');
  });
});
