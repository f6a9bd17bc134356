import { TEXT_LIMITS, type TSignInResponse, type TSignInStatus } from '@helium/contracts';
import { SIGN_IN_ERRORS } from './signInTexts.ts';

export type SignInStep = 1 | 2;

export interface SignInFormState {
  step: SignInStep;
  email: string;
  code: string;
  /** The server asked for the terms to be accepted at step 2. */
  agreementPending: boolean;
  agreed: boolean;
  submitting: boolean;
}

/** The page asked for before signing in (the guard's `next`), sent at step 2: the server decides where to go. */
export function nextFromQuery(search: string): string | undefined {
  const next = new URLSearchParams(search).get('next');
  // Longer than any page address the server takes back: home, as for any other it does not.
  return next && next.length <= TEXT_LIMITS.link ? next : undefined;
}

/**
 * The e-mail given in the page's query string (`?email=`). A `+` in an address arrives as a space
 * when the link was not encoded, so spaces are turned back into plus signs.
 */
export function emailFromQuery(search: string): string {
  const raw = new URLSearchParams(search).get('email');
  return raw ? raw.trim().replace(/ /g, '+') : '';
}

/** An address longer than any the server takes is refused as it is typed, never cut (issue 36, point 8). */
export function isEmailTooLong(email: string): boolean {
  return email.trim().length > TEXT_LIMITS.email;
}

/** Spec 01, section 5: the email must be filled; at step 2 the code too, and any required agreement ticked. */
export function canSubmit(state: SignInFormState): boolean {
  if (state.submitting || state.email.trim() === '' || isEmailTooLong(state.email)) return false;
  if (state.step === 1) return true;
  if (state.agreementPending && !state.agreed) return false;
  return state.code.trim() !== '';
}

/** The code field waits for the agreement when one is pending. */
export function isCodeFieldEnabled(state: SignInFormState): boolean {
  return state.step === 2 && !state.submitting && (!state.agreementPending || state.agreed);
}

export function errorMessageFor(status: TSignInStatus): string | null {
  return status === 'ok' ? null : SIGN_IN_ERRORS[status];
}

export type SignInOutcome =
  | { kind: 'redirect'; to: string }
  | { kind: 'step'; step: SignInStep; agreementPending: boolean; error: string | null; focusCode: boolean };

/** What the screen does with a sign-in answer (spec 01, section 4). */
export function interpretSignInResponse(response: TSignInResponse, current: SignInFormState): SignInOutcome {
  if (response.status === 'ok' && response.step === 3) return { kind: 'redirect', to: response.redirectTo ?? '/' };
  const step: SignInStep = response.step === 2 ? 2 : 1;
  const agreementPending =
    step === 2 &&
    (response.hasUserAgreed === false || response.status === 'agreementRequired' || current.agreementPending);
  return { kind: 'step', step, agreementPending, error: errorMessageFor(response.status), focusCode: step === 2 };
}

const STATUSES: readonly string[] = [
  'ok',
  'wrongCredentialsWrongUser',
  'wrongCredentialsWrongToken',
  'expiredCode',
  'agreementRequired',
];

/** A sign-in answer carried by a refused call (4xx body), when the server sends one that way. */
export function signInResponseFromBody(body: unknown): TSignInResponse | null {
  if (body === null || typeof body !== 'object') return null;
  const candidate = body as Partial<Record<keyof TSignInResponse, unknown>>;
  if (typeof candidate.status !== 'string' || !STATUSES.includes(candidate.status)) return null;
  if (candidate.step !== 1 && candidate.step !== 2 && candidate.step !== 3) return null;
  return {
    status: candidate.status as TSignInStatus,
    step: candidate.step,
    hasUserAgreed: candidate.hasUserAgreed !== false,
    userType:
      candidate.userType === 0 || candidate.userType === 1 || candidate.userType === 2 ? candidate.userType : null,
    redirectTo: typeof candidate.redirectTo === 'string' ? candidate.redirectTo : null,
  };
}
