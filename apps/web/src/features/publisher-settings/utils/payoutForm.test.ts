import { describe, expect, it } from 'vitest';
import { WIRE_ERROR_KEYS } from '@helium/domain/payout-details';
import { ApiError } from '../../../api/client.ts';
import en from '../../../i18n/en.json';
import fr from '../../../i18n/fr.json';
import { errorKeyOf, firstProblem, isConfigured, requestToSave, serverProblem } from './payoutForm.ts';

const WIRE = {
  bankName: 'Banque Démo',
  bic: 'BNPAFRPP',
  iban: 'FR14 2004 1010 0505 0001 3M02 606',
  userName: 'Julien Martin',
  userAddress: '1 rue des Tests, Paris',
  userPhoneNumber: '',
};

describe('firstProblem', () => {
  it('checks a bitcoin address and a PayPal e-mail with the domain rules', () => {
    expect(firstProblem({ field: 'bitcoin', data: { address: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT' } })).toBeNull();
    expect(firstProblem({ field: 'bitcoin', data: { address: 'bc1notanaddress' } })).toEqual({
      field: 'address',
      messageKey: 'settings.formBitcoinAddressError',
    });
    expect(firstProblem({ field: 'paypal', data: { email: 'owner@demo.test' } })).toBeNull();
    expect(firstProblem({ field: 'paypal', data: { email: 'owner@' } })?.messageKey).toBe(
      'settings.formPayPalEmailError',
    );
  });

  it('names the first wrong wire field, in the screen order', () => {
    expect(firstProblem({ field: 'wire', data: WIRE })).toBeNull();
    expect(firstProblem({ field: 'wire', data: { ...WIRE, iban: 'FR14 2004 1010 0505 0001 3M02 607' } })).toEqual({
      field: 'iban',
      messageKey: 'settings.formWireIbanError',
    });
    expect(firstProblem({ field: 'wire', data: { ...WIRE, bic: 'X', iban: 'nope' } })?.field).toBe('bic');
    expect(firstProblem({ field: 'wire', data: { ...WIRE, userAddress: ' ' } })).toEqual({
      field: 'userAddress',
      messageKey: 'settings.formWireHolderAddressError',
    });
  });
});

describe('requestToSave', () => {
  it('trims, and writes the IBAN and the BIC in capitals without spaces', () => {
    expect(requestToSave({ field: 'wire', data: { ...WIRE, bic: ' bnpa frpp ', bankName: ' Banque ' } })).toEqual({
      field: 'wire',
      data: { ...WIRE, bankName: 'Banque', bic: 'BNPAFRPP', iban: 'FR1420041010050500013M02606' },
    });
    expect(requestToSave({ field: 'paypal', data: { email: ' a@b.co ' } })).toEqual({
      field: 'paypal',
      data: { email: 'a@b.co' },
    });
  });
});

describe('serverProblem', () => {
  it("puts the server's invalidField on its field, with its message", () => {
    const error = new ApiError(422, { status: 'invalidField', field: 'iban', message: 'Wrong IBAN' });
    expect(serverProblem('wire', error)).toEqual({
      field: 'iban',
      messageKey: 'settings.formWireIbanError',
      message: 'Wrong IBAN',
    });
    expect(serverProblem('bitcoin', new ApiError(422, { status: 'invalidField', field: 'bitcoin' }))).toEqual({
      field: 'address',
      messageKey: 'settings.formBitcoinAddressError',
    });
    expect(
      serverProblem(
        'wire',
        new ApiError(422, { status: 'invalidRequest', issues: [{ path: 'data.bic', message: 'Too long' }] }),
      ),
    ).toEqual({ field: 'bic', messageKey: 'settings.formWireBicError', message: 'Too long' });
  });

  it('leaves other failures to the card', () => {
    expect(serverProblem('wire', new ApiError(500, { message: 'boom' }))).toBeNull();
    expect(serverProblem('wire', new ApiError(422, { status: 'invalidField', field: 'other' }))).toBeNull();
    expect(serverProblem('wire', new Error('offline'))).toBeNull();
  });
});

describe('messages', () => {
  it('exist in both catalogues for every checked field, the holder address as the specification says', () => {
    const keys = [errorKeyOf('address'), errorKeyOf('email'), ...Object.values(WIRE_ERROR_KEYS)];
    for (const key of keys) {
      const name = String(key).replace('settings.', '') as keyof typeof en.settings;
      expect(en.settings[name], String(key)).toBeTruthy();
      expect(fr.settings[name], String(key)).toBeTruthy();
    }
    expect(fr.settings.formWireHolderAddressError).toBe('Adresse incorrecte.');
    expect(en.settings.formWireHolderAddressError).toBe('Incorrect address.');
    expect(errorKeyOf('userPhoneNumber')).toBeNull();
  });

  it('tells a configured method by any filled field', () => {
    expect(isConfigured({ address: '' })).toBe(false);
    expect(isConfigured({ ...WIRE, bankName: '' })).toBe(true);
  });
});
