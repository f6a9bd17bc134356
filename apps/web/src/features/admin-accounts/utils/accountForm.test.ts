import { describe, expect, it } from 'vitest';
import { createRequest, domainOf, EMPTY_ACCOUNT_FORM, orNull } from './accountForm.ts';

const base = { ...EMPTY_ACCOUNT_FORM, brand: 'Jardin', email: 'c@j.test', name: 'C', locale: 'fr' as const };

describe('createRequest', () => {
  it('sends a web publisher with its domain, cleaned', () => {
    expect(createRequest({ ...base, domain: 'https://www.Jardin.test/blog' })).toEqual({
      kind: 'publisher',
      brand: 'Jardin',
      email: 'c@j.test',
      name: 'C',
      locale: 'fr',
      domain: 'www.jardin.test',
    });
  });

  it('sends a newsletter publisher', () => {
    expect(createRequest({ ...base, medium: 'newsletter' })).toMatchObject({ kind: 'publisher', newsletter: true });
  });

  it('sends an advertiser with its first campaign and trial credits', () => {
    expect(createRequest({ ...base, kind: 'advertiser', pricing: 'cpc', price: '0,40', trialCredits: 100 })).toEqual({
      kind: 'advertiser',
      brand: 'Jardin',
      email: 'c@j.test',
      name: 'C',
      locale: 'fr',
      campaign: { isCpc: true, isOwl: false, price: 0.4 },
      trialCredits: 100,
    });
  });
});

describe('small helpers', () => {
  it('cleans domains and reads emptied numbers as null', () => {
    expect(domainOf(' Example.com ')).toBe('example.com');
    expect(orNull('')).toBe(null);
    expect(orNull('12,5')).toBe(12.5);
  });
});
