import { describe, expect, it } from 'vitest';
import type { TAccounting } from '@helium/contracts';
import { balanceColour, canPayoutBy, payoutOptions, payoutRequest } from './payoutOptions.ts';

const ACCOUNTING: TAccounting = {
  publisher: {
    id: 1,
    brand: 'Demo Blog',
    is_installed: true,
    payout_bitcoin: null,
    payout_paypal: 'owner@demo.test',
    canPayoutBitcoin: false,
    canPayoutPaypal: true,
    canPayoutWire: true,
  },
  totalRevenues: 512.3,
  balance: 123.45,
  balanceSign: 'positive',
  transferFees: { paypal: 1.5, wire: 5 },
  canPayout: true,
  canPayoutBitcoin: false,
  canPayoutPaypal: true,
  canPayoutWire: true,
  minBalanceForPayout: 50,
  authorizedPayoutMethods: ['bitcoin', 'paypal', 'wire'],
  configuredPayoutMethods: ['paypal', 'wire'],
  pendingPayout: null,
  usd_to_eur: '0.92000000',
  btc_to_eur: '61250.00',
  transactions: [],
};

describe('payoutOptions', () => {
  it('lists each method in its currencies, with the fee on EUR by PayPal or wire only', () => {
    const options = payoutOptions(ACCOUNTING, 'en');
    expect(options.map((option) => `${option.method}:${option.currency}`)).toEqual([
      'bitcoin:btc',
      'paypal:eur',
      'paypal:usd',
      'wire:eur',
      'wire:usd',
    ]);
    const byKey = Object.fromEntries(options.map((option) => [`${option.method}:${option.currency}`, option]));
    expect(byKey['paypal:eur']).toMatchObject({ enabled: true, feeStr: '1.50 €', amountStr: '121.95 €' });
    expect(byKey['wire:eur']).toMatchObject({ enabled: true, feeStr: '5.00 €', amountStr: '118.45 €' });
    // 123.45 / 0.92 = 134.184..., to the cent; no fee in dollars.
    expect(byKey['paypal:usd']).toMatchObject({ feeStr: null, amountStr: '$134.18' });
    // 123.45 / 61250 = 0.00201551 bitcoins; bitcoin is not configured, so the entry is dimmed and says why.
    expect(byKey['bitcoin:btc']).toMatchObject({
      enabled: false,
      problem: 'methodNotConfigured',
      feeStr: null,
      amountStr: '₿0.00201551',
    });
  });

  it('formats in French and shows no amount when a rate is missing', () => {
    const options = payoutOptions({ ...ACCOUNTING, balance: 1234.5, usd_to_eur: '0' }, 'fr');
    expect(options.find((option) => option.currency === 'usd')?.amountStr).toBeNull();
    expect(options.find((option) => option.method === 'paypal' && option.currency === 'eur')?.amountStr).toBe(
      '1 233,00 €',
    );
  });

  it('says why an entry is dimmed: below the minimum, or a payout pending', () => {
    const below = payoutOptions({ ...ACCOUNTING, balance: 12, canPayout: false, canPayoutPaypal: false }, 'en');
    expect(below.find((option) => option.method === 'paypal')?.problem).toBe('belowMinimum');
    const pending = payoutOptions(
      {
        ...ACCOUNTING,
        canPayoutWire: false,
        pendingPayout: { id: 3, method: 'paypal', currency: 'eur', amountStr: '10.00 €', createdAtStr: 'today' },
      },
      'en',
    );
    expect(pending.find((option) => option.method === 'wire')?.problem).toBe('pendingPayout');
  });
});

describe('payoutRequest', () => {
  it('sends the balance, the fee and the amounts shown in each currency', () => {
    expect(payoutRequest(ACCOUNTING, 'paypal', 'eur', 'en')).toEqual({
      balance: 123.45,
      transferFees: 1.5,
      amountToTransferInEurStr: '121.95 €',
      amountToTransferInUsdStr: '$134.18',
      amountToTransferInBtcStr: '₿0.00201551',
      method: 'paypal',
      currency: 'eur',
    });
    expect(payoutRequest(ACCOUNTING, 'wire', 'usd', 'en').transferFees).toBe(0);
  });
});

describe('canPayoutBy and balanceColour', () => {
  it("follow the server's flags and the balance's sign", () => {
    expect(['bitcoin', 'paypal', 'wire'].map((method) => canPayoutBy(ACCOUNTING, method as 'wire'))).toEqual([
      false,
      true,
      true,
    ]);
    expect(['positive', 'zero', 'negative'].map((sign) => balanceColour(sign as 'zero'))).toEqual([
      'teal',
      'dimmed',
      'red',
    ]);
  });
});
