import type { TCreateCouponRequest, TIssue } from '@helium/contracts';
import { typedNumber } from '../../forms/utils/typedNumber.ts';
import type { FieldOf } from '../../forms/utils/issues.ts';

/** The coupon form as typed: a code, a percentage off or free credits, and an optional last day. */
export interface CouponFormValues {
  code: string;
  kind: 'percent' | 'free';
  amount: number | string;
  /** YYYY-MM-DD, or '' for no expiry. */
  expiresOn: string;
}

export const EMPTY_COUPON_FORM: CouponFormValues = { code: '', kind: 'percent', amount: '', expiresOn: '' };

export type CouponField = 'code' | 'amount' | 'expiresOn';

/**
 * What the form sends, as typed: the contract checks it before it is sent (a percentage is a whole number from 1
 * to 100, -5 or 150 is refused, never turned into 5 or 100; a code longer than 40 characters is refused, not cut).
 * A coupon expires at the end of its last day, UTC, the network's time base.
 */
export function couponRequest(values: CouponFormValues): TCreateCouponRequest {
  const value = typedNumber(values.amount) ?? null;
  return {
    code: values.code.trim(),
    percentOff: values.kind === 'percent' ? value : null,
    freeQuantity: values.kind === 'free' ? value : null,
    expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(values.expiresOn) ? `${values.expiresOn}T23:59:59Z` : null,
  };
}

/** An empty amount: required (the contract would say only that a coupon needs one kind or the other). */
export function missingAmount(values: CouponFormValues): TIssue | null {
  return typedNumber(values.amount) === undefined ? { path: 'amount', message: 'Required', key: 'required' } : null;
}

const FIELD_OF_PATH: Record<string, CouponField> = {
  code: 'code',
  percentOff: 'amount',
  freeQuantity: 'amount',
  expiresAt: 'expiresOn',
};

/** The form's field that an issue of create-coupon names. */
export const couponFieldOf: FieldOf<CouponField> = (path) => FIELD_OF_PATH[path.split('.')[0] ?? ''];
