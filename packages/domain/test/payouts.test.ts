import { describe, expect, it } from 'vitest';
import { isBitcoinAddress, isPaypalEmail, firstWireProblem, type WireDetails } from '../src/payout-details.ts';
import {
  payoutBlocker,
  payoutFlags,
  payoutProblem,
  payoutQuote,
  transferFee,
  type PayoutFacts,
} from '../src/payouts.ts';

const fees = { paypalEur: 1_000_000, wireEur: 5_000_000 };
const rates = { usdToEur: '0.92000000', btcToEur: '82000.00' };

describe('transfer fees (specification 02, section 2.5)', () => {
  it.each([
    ['paypal', 'eur', 1_000_000],
    ['wire', 'eur', 5_000_000],
    ['paypal', 'usd', 0],
    ['wire', 'usd', 0],
    ['bitcoin', 'btc', 0],
  ] as const)('%s in %s: %d', (method, currency, fee) => {
    expect(transferFee(method, currency, fees)).toBe(fee);
  });
});

describe('a payout of the whole balance', () => {
  it.each([
    ['wire', 'eur', { debit: 120_000_000, fee: 5_000_000, netEuros: 115_000_000, amountInCurrency: 115_000_000 }],
    ['paypal', 'usd', { debit: 120_000_000, fee: 0, netEuros: 120_000_000, amountInCurrency: 130_430_000 }],
    ['bitcoin', 'btc', { debit: 120_000_000, fee: 0, netEuros: 120_000_000, amountInCurrency: 1_463_414_634 }],
  ] as const)('by %s in %s', (method, currency, quote) => {
    expect(payoutQuote(120_000_000, method, currency, fees, rates)).toEqual(quote);
  });

  it('never sends less than nothing when the fee exceeds the balance', () => {
    expect(payoutQuote(500_000, 'wire', 'eur', fees, rates).netEuros).toBe(0);
  });
});

describe('who may be paid', () => {
  const facts: PayoutFacts = {
    balance: 60_000_000,
    minBalanceForPayout: 50_000_000,
    authorizedMethods: ['paypal', 'wire', 'bitcoin'],
    configuredMethods: ['paypal', 'wire'],
    hasPendingPayout: false,
  };

  it.each([
    [facts, 'paypal', 'eur', null],
    [facts, 'bitcoin', 'btc', 'methodNotConfigured'],
    [{ ...facts, authorizedMethods: ['wire'] }, 'paypal', 'eur', 'methodNotAuthorized'],
    [facts, 'paypal', 'btc', 'currencyNotForMethod'],
    [{ ...facts, hasPendingPayout: true }, 'paypal', 'eur', 'pendingPayout'],
    [{ ...facts, balance: 49_999_999 }, 'paypal', 'eur', 'belowMinimum'],
    [{ ...facts, balance: 50_000_000 }, 'wire', 'usd', null],
  ] as const)('%#: %s in %s -> %s', (given, method, currency, problem) => {
    expect(payoutProblem(given as PayoutFacts, method, currency)).toBe(problem);
  });

  it.each([
    [facts, null],
    // The 77.09 EUR publisher of the report: over the minimum, no method authorised.
    [{ ...facts, balance: 77_090_000, authorizedMethods: [], configuredMethods: [] }, 'methodNotAuthorized'],
    [{ ...facts, authorizedMethods: ['bitcoin'] }, 'methodNotConfigured'],
    [{ ...facts, balance: 49_999_999 }, 'belowMinimum'],
    [{ ...facts, balance: 49_999_999, authorizedMethods: [] }, 'belowMinimum'],
    [{ ...facts, hasPendingPayout: true, balance: 0 }, 'pendingPayout'],
  ] as const)('%#: the Payout button blocked by %s', (given, blocker) => {
    expect(payoutBlocker(given as PayoutFacts)).toBe(blocker === null ? null : blocker);
  });

  it('flags each method, and canPayout when any can pay', () => {
    expect(payoutFlags(facts)).toEqual({
      canPayout: true,
      canPayoutBitcoin: false,
      canPayoutPaypal: true,
      canPayoutWire: true,
    });
    expect(payoutFlags({ ...facts, balance: 10 }).canPayout).toBe(false);
  });
});

describe('payout details (section 5, with real checksums)', () => {
  it.each([
    ['1BoatSLRHtKNngkdXEeobR76b53LETtpyT', true],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', true],
    ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', true],
    ['bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297', true],
    ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr', false], // checksum
    ['BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ', false], // capitals: the spec's lowercase form only
    ['2BoatSLRHtKNngkdXEeobR76b53LETtpyT', false],
    ['1short', false],
    ['', false],
  ])('bitcoin %s: %s', (address, valid) => {
    expect(isBitcoinAddress(address)).toBe(valid);
  });

  it.each([
    ['julien@demo.test', true],
    ['julien@demo', false],
    ['julien demo@demo.test', false],
    ['@demo.test', false],
  ])('paypal %s: %s', (email, valid) => {
    expect(isPaypalEmail(email)).toBe(valid);
  });

  const wire: WireDetails = {
    bankName: 'BNP Paribas',
    bic: 'BNPAFRPP',
    iban: 'FR76 3000 6000 0112 3456 7890 189',
    userName: 'Julien Martin',
    userAddress: '3 rue des Lilas, 75011 Paris',
    userPhoneNumber: '',
  };
  it.each([
    [{}, null],
    [{ bankName: ' ' }, 'bankName'],
    [{ bic: 'BNPA' }, 'bic'],
    [{ bic: 'BNPAFRPPXXX' }, null],
    [{ iban: 'FR76 3000 6000 0112 3456 7890 188' }, 'iban'],
    [{ iban: 'FR7630006000011234567890189' }, null],
    [{ userName: '' }, 'userName'],
    [{ userAddress: '' }, 'userAddress'],
    [{ bankName: '', iban: 'x' }, 'bankName'], // the first failing field, in the screen's order
  ] as const)('wire %o: %s', (change, problem) => {
    expect(firstWireProblem({ ...wire, ...change })).toBe(problem);
  });
});
