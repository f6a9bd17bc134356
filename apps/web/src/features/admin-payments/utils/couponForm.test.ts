import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { couponErrors, couponRequest, EMPTY_COUPON_FORM } from './couponForm.ts';

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

  it('leaves an empty amount to the server to refuse', () => {
    expect(couponRequest({ ...EMPTY_COUPON_FORM, code: 'X' })).toMatchObject({ percentOff: null, freeQuantity: null });
  });
});

describe('couponErrors', () => {
  it("puts each of the server's issues on its field", () => {
    const error = new ApiError(422, {
      status: 'invalidRequest',
      message: 'The request is not valid.',
      issues: [
        { path: 'code', message: 'Letters, digits, - and _ only, 3 to 40 characters' },
        { path: 'percentOff', message: 'A coupon gives either a percentage off or free credits' },
        { path: 'expiresAt', message: 'Invalid date' },
      ],
    });
    expect(couponErrors(error)).toEqual({
      code: 'Letters, digits, - and _ only, 3 to 40 characters',
      amount: 'A coupon gives either a percentage off or free credits',
      expiresOn: 'Invalid date',
    });
  });

  it("shows a refusal without issues as the form's", () => {
    expect(couponErrors(new ApiError(409, { status: 'couponExists', message: 'This code exists already' }))).toEqual({
      form: 'This code exists already',
    });
    expect(couponErrors(new Error('boom'))).toEqual({ form: '' });
  });
});
