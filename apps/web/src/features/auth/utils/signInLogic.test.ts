import { describe, expect, it } from 'vitest';
import type { TSignInResponse } from '@helium/contracts';
import {
  canSubmit,
  emailFromQuery,
  errorMessageFor,
  interpretSignInResponse,
  isCodeFieldEnabled,
  signInResponseFromBody,
  type SignInFormState,
} from './signInLogic.ts';

const initial: SignInFormState = {
  step: 1,
  email: '',
  code: '',
  agreementPending: false,
  agreed: false,
  submitting: false,
};

function answer(partial: Partial<TSignInResponse>): TSignInResponse {
  return { status: 'ok', step: 2, hasUserAgreed: true, userType: null, redirectTo: null, ...partial };
}

describe('emailFromQuery', () => {
  it('reads ?email= and turns spaces back into plus signs', () => {
    expect(emailFromQuery('?email=jane+ads@example.com')).toBe('jane+ads@example.com');
    expect(emailFromQuery('?email=jane%2Bads@example.com')).toBe('jane+ads@example.com');
    expect(emailFromQuery('?email=a b@example.com')).toBe('a+b@example.com');
  });

  it('is empty without the parameter', () => {
    expect(emailFromQuery('')).toBe('');
    expect(emailFromQuery('?other=1')).toBe('');
  });
});

describe('canSubmit', () => {
  it('needs the email at step 1', () => {
    expect(canSubmit(initial)).toBe(false);
    expect(canSubmit({ ...initial, email: '  ' })).toBe(false);
    expect(canSubmit({ ...initial, email: 'a@b.co' })).toBe(true);
  });

  it('waits while the address is longer than the server takes (254 characters), and takes 254', () => {
    const at254 = `${'a'.repeat(244)}@demo.test`;
    expect(at254).toHaveLength(254);
    expect(canSubmit({ ...initial, email: at254 })).toBe(true);
    expect(canSubmit({ ...initial, email: `a${at254}` })).toBe(false);
  });

  it('needs the code at step 2', () => {
    const step2 = { ...initial, step: 2 as const, email: 'a@b.co' };
    expect(canSubmit(step2)).toBe(false);
    expect(canSubmit({ ...step2, code: '123456' })).toBe(true);
  });

  it('needs a pending agreement ticked', () => {
    const pending = { ...initial, step: 2 as const, email: 'a@b.co', code: '123456', agreementPending: true };
    expect(canSubmit(pending)).toBe(false);
    expect(canSubmit({ ...pending, agreed: true })).toBe(true);
  });

  it('is off while a request is on its way', () => {
    expect(canSubmit({ ...initial, email: 'a@b.co', submitting: true })).toBe(false);
  });
});

describe('isCodeFieldEnabled', () => {
  it('waits for a pending agreement', () => {
    const step2 = { ...initial, step: 2 as const, email: 'a@b.co' };
    expect(isCodeFieldEnabled(step2)).toBe(true);
    expect(isCodeFieldEnabled({ ...step2, agreementPending: true })).toBe(false);
    expect(isCodeFieldEnabled({ ...step2, agreementPending: true, agreed: true })).toBe(true);
    expect(isCodeFieldEnabled(initial)).toBe(false);
  });
});

describe('errorMessageFor', () => {
  it('gives the French texts of the catalogue', () => {
    expect(errorMessageFor('wrongCredentialsWrongUser')).toBe("Cette adresse e-mail n'existe pas dans le système.");
    expect(errorMessageFor('wrongCredentialsWrongToken')).toBe('Code incorrect, recommencez.');
    expect(errorMessageFor('expiredCode')).toBe('Code expiré, recommencez.');
    expect(errorMessageFor('ok')).toBeNull();
  });
});

describe('interpretSignInResponse', () => {
  it('moves to step 2, asking for the agreement when the user has not agreed', () => {
    expect(interpretSignInResponse(answer({ step: 2, hasUserAgreed: false }), initial)).toEqual({
      kind: 'step',
      step: 2,
      agreementPending: true,
      error: null,
      focusCode: true,
    });
    expect(interpretSignInResponse(answer({ step: 2 }), initial)).toMatchObject({ step: 2, agreementPending: false });
  });

  it('redirects on success at step 3', () => {
    expect(interpretSignInResponse(answer({ step: 3, redirectTo: '/admin/stats' }), initial)).toEqual({
      kind: 'redirect',
      to: '/admin/stats',
    });
  });

  it('returns to the step the server gives on an error, with its message', () => {
    const atStep2 = { ...initial, step: 2 as const, email: 'a@b.co', code: '000000' };
    expect(interpretSignInResponse(answer({ status: 'wrongCredentialsWrongToken', step: 1 }), atStep2)).toEqual({
      kind: 'step',
      step: 1,
      agreementPending: false,
      error: 'Code incorrect, recommencez.',
      focusCode: false,
    });
    expect(interpretSignInResponse(answer({ status: 'expiredCode', step: 2 }), atStep2)).toMatchObject({
      step: 2,
      error: 'Code expiré, recommencez.',
      focusCode: true,
    });
  });
});

describe('signInResponseFromBody', () => {
  it('reads a sign-in answer sent with an error status', () => {
    expect(signInResponseFromBody({ status: 'expiredCode', step: 1, hasUserAgreed: true })).toEqual({
      status: 'expiredCode',
      step: 1,
      hasUserAgreed: true,
      userType: null,
      redirectTo: null,
    });
  });

  it('ignores bodies that are not sign-in answers', () => {
    expect(signInResponseFromBody({ status: 'rateLimited', message: 'Too many' })).toBeNull();
    expect(signInResponseFromBody('Too many requests')).toBeNull();
    expect(signInResponseFromBody(null)).toBeNull();
  });
});
