import type { TCreateCouponRequest } from '@helium/contracts';
import { ApiError } from '../../../api/client.ts';

/** The coupon form as typed: a code, a percentage off or free credits, and an optional last day. */
export interface CouponFormValues {
  code: string;
  kind: 'percent' | 'free';
  amount: number | string;
  /** YYYY-MM-DD, or '' for no expiry. */
  expiresOn: string;
}

export const EMPTY_COUPON_FORM: CouponFormValues = { code: '', kind: 'percent', amount: '', expiresOn: '' };

export type CouponField = 'code' | 'amount' | 'expiresOn' | 'form';

/**
 * What the form sends: the server checks everything (code's letters, 1-100 %, one kind only). A coupon expires at
 * the end of its last day, UTC, the network's time base.
 */
export function couponRequest(values: CouponFormValues): TCreateCouponRequest {
  const amount = values.amount === '' ? Number.NaN : Number(values.amount);
  const value = Number.isFinite(amount) ? amount : null;
  return {
    code: values.code.trim(),
    percentOff: values.kind === 'percent' ? value : null,
    freeQuantity: values.kind === 'free' ? value : null,
    expiresAt: /^\d{4}-\d{2}-\d{2}$/.test(values.expiresOn) ? `${values.expiresOn}T23:59:59Z` : null,
  };
}

const FIELD_OF_PATH: Record<string, CouponField> = {
  code: 'code',
  percentOff: 'amount',
  freeQuantity: 'amount',
  expiresAt: 'expiresOn',
};

/** The server's refusal, field by field where it names one; `form` for the rest. */
export function couponErrors(error: unknown): Partial<Record<CouponField, string>> {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return { form: '' };
  const body = error.body as { message?: unknown; issues?: unknown };
  const errors: Partial<Record<CouponField, string>> = {};
  if (Array.isArray(body.issues)) {
    for (const issue of body.issues as { path?: unknown; message?: unknown }[]) {
      const field = FIELD_OF_PATH[String(issue.path ?? '')] ?? 'form';
      if (typeof issue.message === 'string' && errors[field] === undefined) errors[field] = issue.message;
    }
  }
  if (Object.keys(errors).length === 0) errors.form = typeof body.message === 'string' ? body.message : '';
  return errors;
}
