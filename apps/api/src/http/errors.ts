import type { TIssue, TIssueKey, TIssueValues } from '@helium/contracts';

/**
 * A refusal with its HTTP code and a stable status key the client can act on; `issues` name the fields at fault
 * when a rule the contract cannot check (one across fields) refuses the input, as the contract's 422s do.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly status: string,
    message: string,
    readonly issues?: TIssue[],
  ) {
    super(message);
  }
}

export const unauthorized = () => new HttpError(401, 'unauthenticated', 'Sign in first.');
export const forbidden = (message = 'This account may not do that.') => new HttpError(403, 'forbidden', message);
export const notFound = (message = 'Not found.') => new HttpError(404, 'notFound', message);
export const tooManyRequests = () =>
  new HttpError(429, 'tooManyAttempts', 'Too many attempts. Wait a few minutes, then try again.');
export const csrfMismatch = () =>
  new HttpError(419, 'csrfTokenMismatch', 'The anti-forgery token is missing or wrong. Reload the page.');

/**
 * A refusal naming the one field at fault, as the contract's 422s do (`issues`: its path, reason key and values), so
 * that the screen shows it beside that field in the user's language.
 */
export const fieldRefusal = (
  statusCode: number,
  status: string,
  message: string,
  field: { path: string; key: TIssueKey; values?: TIssueValues },
) =>
  new HttpError(statusCode, status, message, [
    { path: field.path, message, key: field.key, ...(field.values ? { values: field.values } : {}) },
  ]);
