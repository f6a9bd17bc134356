import { describe, expect, it } from 'vitest';
import { checkRequest, ZCreateCouponRequestSchema } from '@helium/contracts';
import { errorsByField } from '../../forms/utils/issues.ts';
import { couponFieldOf, couponRequest, EMPTY_COUPON_FORM, missingAmount, type CouponFormValues } from './couponForm.ts';

describe('couponRequest', () => {
  it('sends a percentage off or free credits, never both, and the end of the last day', () => {
    expect(couponRequest({ code: ' SPRING ', kind: 'percent', amount: 15, expiresOn: '2027-03-31' })).toEqual({
      code: 'SPRING',
      percentOff: 15,
      freeQuantity: null,
      expiresAt: '2027-03-31T23:59:59Z',
    });
    expect(couponRequest({ code: 'FREE', kind: 'free', amount: '50000', expiresOn: '' })).toEqual({
      code: 'FREE',
      percentOff: null,
      freeQuantity: 50000,
      expiresAt: null,
    });
  });

  it('says an empty amount is required', () => {
    expect(couponRequest({ ...EMPTY_COUPON_FORM, code: 'X' })).toMatchObject({ percentOff: null, freeQuantity: null });
    expect(missingAmount({ ...EMPTY_COUPON_FORM, code: 'X' })).toMatchObject({ key: 'required' });
    expect(missingAmount({ ...EMPTY_COUPON_FORM, amount: 0 })).toBe(null);
  });
});

describe('the check before sending (issue 36: nothing brought into range, nothing cut)', () => {
  const refusal = (values: Partial<CouponFormValues>) => {
    const checked = checkRequest(ZCreateCouponRequestSchema, couponRequest({ ...EMPTY_COUPON_FORM, ...values }));
    return checked.success ? null : errorsByField(checked.issues, couponFieldOf);
  };

  it('refuses a percentage below 1 or above 100, or not whole, beside the amount', () => {
    expect(refusal({ code: 'SPRING', amount: -5 })?.fields.amount).toMatchObject({
      key: 'atLeast',
      values: { min: 1 },
    });
    expect(refusal({ code: 'SPRING', amount: '150' })?.fields.amount).toMatchObject({
      key: 'atMost',
      values: { max: 100 },
    });
    expect(refusal({ code: 'SPRING', amount: '12.5' })?.fields.amount).toMatchObject({ key: 'wholeNumber' });
    expect(refusal({ code: 'SPRING', amount: 100 })).toBe(null);
  });

  it('refuses a code over 40 characters (saying how many were typed) or with other characters', () => {
    expect(refusal({ code: 'A'.repeat(300), amount: 10 })?.fields.code).toMatchObject({
      key: 'tooLong',
      values: { max: 40, typed: 300 },
    });
    expect(refusal({ code: 'SPR ING', amount: 10 })?.fields.code).toMatchObject({ key: 'couponCode' });
    expect(refusal({ code: 'AB', amount: 10 })?.fields.code).toMatchObject({ key: 'tooShort', values: { min: 3 } });
  });

  it("places the server's issues on the form's fields", () => {
    expect(couponFieldOf('freeQuantity')).toBe('amount');
    expect(couponFieldOf('expiresAt')).toBe('expiresOn');
    expect(couponFieldOf('other')).toBeUndefined();
  });
});
