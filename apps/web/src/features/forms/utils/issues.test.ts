import { describe, expect, it } from 'vitest';
import { ISSUE_KEYS } from '@helium/contracts';
import { ApiError } from '../../../api/client.ts';
import en from '../../../i18n/en.json';
import fr from '../../../i18n/fr.json';
import { errorsByField, hasErrors, lastPartField, refusalIssues, topLevelField } from './issues.ts';
import { typedNumber } from './typedNumber.ts';

describe('refusalIssues', () => {
  it("reads a 4xx's issues, and nothing else", () => {
    const issue = { path: 'campaign.price', message: 'A price must be above 0', key: 'above', values: { min: 0 } };
    expect(refusalIssues(new ApiError(422, { status: 'invalidRequest', message: 'x', issues: [issue] }))).toEqual([
      issue,
    ]);
    expect(refusalIssues(new ApiError(409, { status: 'coupon.codeTaken', message: 'x', issues: [issue] }))).toEqual([
      issue,
    ]);
    expect(refusalIssues(new ApiError(409, { status: 'settingsChanged', message: 'Reload' }))).toBeNull();
    expect(refusalIssues(new ApiError(422, { status: 'x', message: 'x', issues: [{ nope: 1 }] }))).toBeNull();
    expect(refusalIssues(new ApiError(500, { issues: [issue] }))).toBeNull();
    expect(refusalIssues(new Error('offline'))).toBeNull();
  });
});

describe('errorsByField', () => {
  it('puts the first issue of each field beside it, and the first naming none on the form', () => {
    const fieldOf = lastPartField(['price', 'brand'] as const);
    const errors = errorsByField(
      [
        { path: 'campaign.price', message: 'a', key: 'above' },
        { path: 'campaign.price', message: 'b', key: 'decimals' },
        { path: '', message: 'c', key: 'unknownField' },
        { path: 'locale', message: 'd', key: 'choice' },
      ],
      fieldOf,
    );
    expect(errors).toEqual({
      fields: { price: expect.objectContaining({ key: 'above' }) },
      form: expect.objectContaining({ key: 'unknownField' }),
    });
    expect(hasErrors(errors)).toBe(true);
    expect(hasErrors(errorsByField([], fieldOf))).toBe(false);
  });

  it('names fields by the first or the last part of the path', () => {
    expect(topLevelField(['data'] as const)('data.address')).toBe('data');
    expect(lastPartField(['address'] as const)('data.address')).toBe('address');
    expect(topLevelField(['data'] as const)('other')).toBeUndefined();
  });
});

describe('typedNumber', () => {
  it('reads a field as typed: empty is absent, nothing rounded or brought into range', () => {
    expect(typedNumber('')).toBeUndefined();
    expect(typedNumber('  ')).toBeUndefined();
    expect(typedNumber('-500')).toBe(-500);
    expect(typedNumber('2,555')).toBe(2.555);
    expect(typedNumber(150)).toBe(150);
    expect(typedNumber('-')).toBeNaN();
  });
});

describe('the catalogues', () => {
  it('word every reason an issue can give, in English and in French', () => {
    for (const catalogue of [en, fr]) {
      for (const key of ISSUE_KEYS) expect(catalogue.validation[key], key).toEqual(expect.any(String));
    }
  });
});
