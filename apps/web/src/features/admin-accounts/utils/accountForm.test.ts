import { describe, expect, it } from 'vitest';
import { checkRequest, ZCreateAccountRequestSchema } from '@helium/contracts';
import { errorsByField, lastPartField } from '../../forms/utils/issues.ts';
import {
  ACCOUNT_FIELDS,
  createRequest,
  domainOf,
  EMPTY_ACCOUNT_FORM,
  orNull,
  type AccountForm,
} from './accountForm.ts';

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

describe('the check before sending (issue 36: nothing taken that the server would refuse, nothing changed)', () => {
  const refused = (form: Partial<AccountForm>) => {
    const checked = checkRequest(ZCreateAccountRequestSchema, createRequest({ ...base, kind: 'advertiser', ...form }));
    return checked.success ? {} : errorsByField(checked.issues, lastPartField(ACCOUNT_FIELDS)).fields;
  };

  it('refuses an empty, zero or negative price beside it', () => {
    expect(refused({ price: '' }).price).toMatchObject({ key: 'required' });
    expect(refused({ price: 0 }).price).toMatchObject({ key: 'above', values: { min: 0 } });
    expect(refused({ price: '-2' }).price).toMatchObject({ key: 'above' });
    expect(refused({ price: 2.5 })).toEqual({});
  });

  it('refuses negative or fractional trial credits, and takes 0 or none', () => {
    expect(refused({ trialCredits: -500 }).trialCredits).toMatchObject({ key: 'atLeast', values: { min: 0 } });
    expect(refused({ trialCredits: '2.5' }).trialCredits).toMatchObject({ key: 'wholeNumber' });
    expect(refused({ trialCredits: 0 })).toEqual({});
    expect(refused({ trialCredits: '' })).toEqual({});
  });

  it('refuses empty or too long names, a bad e-mail, and a web publisher without its domain', () => {
    expect(refused({ brand: ' ', name: 'N'.repeat(121), email: 'nope' })).toEqual({
      brand: expect.objectContaining({ key: 'required' }),
      name: expect.objectContaining({ key: 'tooLong', values: { max: 120, typed: 121 } }),
      email: expect.objectContaining({ key: 'email' }),
    });
    expect(refused({ kind: 'publisher', domain: '' }).domain).toMatchObject({ key: 'required' });
    expect(refused({ kind: 'publisher', domain: 'not a domain' }).domain).toMatchObject({ key: 'domain' });
  });
});

describe('small helpers', () => {
  it('cleans domains and reads emptied numbers as null', () => {
    expect(domainOf(' Example.com ')).toBe('example.com');
    expect(orNull('')).toBe(null);
    expect(orNull('12,5')).toBe(12.5);
  });
});
