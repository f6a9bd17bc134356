import type { TIssue } from '@helium/contracts';
import { ApiError } from '../../../api/client.ts';

/*
 * The one way a form places what was refused beside its fields (issue 36, point 2), whether the web app's own check
 * found it (`checkRequest` with the call's contract schema, before sending) or the server's 4xx listed it
 * (`issues`, each naming its field). Each form says which field a path is (`FieldOf`); what names none of its
 * fields is the form's own message.
 */

/** The form's field that an issue's path (`campaign.price`, `placements.2.selector`) is about, or null. */
export type FieldOf<F extends string> = (path: string) => F | null | undefined;

/** A message of the form as a whole: an issue no field shows, or a text already in the user's language. */
export type FormMessage = TIssue | { text: string };

/** What a form shows: an issue (or a screen's own text) beside each field at fault, and its own message. */
export interface FieldErrors<F extends string> {
  fields: Partial<Record<F, FormMessage>>;
  form?: FormMessage;
}

export const NO_ERRORS = { fields: {} } as const satisfies FieldErrors<never>;

/** A form whose fields are named as the call's body names them: the first part of the path, when it is one. */
export const topLevelField =
  <F extends string>(fields: readonly F[]): FieldOf<F> =>
  (path) =>
    fields.find((field) => field === path.split('.')[0]);

/** A field's name as a path: `campaign.price` -> `price` (its last part), when it is one of the fields. */
export const lastPartField =
  <F extends string>(fields: readonly F[]): FieldOf<F> =>
  (path) =>
    fields.find((field) => field === path.split('.').pop());

/** The issues of a refusal (a 4xx whose body lists them); null for any other failure, or a refusal without. */
export function refusalIssues(error: unknown): TIssue[] | null {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500) return null;
  const body = error.body as { issues?: unknown } | null;
  if (typeof body !== 'object' || body === null || !Array.isArray(body.issues)) return null;
  const issues = body.issues.filter(
    (issue): issue is TIssue =>
      typeof issue === 'object' &&
      issue !== null &&
      typeof (issue as TIssue).path === 'string' &&
      typeof (issue as TIssue).message === 'string',
  );
  return issues.length > 0 ? issues : null;
}

/** Issues beside the form's fields, the first of each field; the first that names none of them is the form's. */
export function errorsByField<F extends string>(issues: readonly TIssue[], fieldOf: FieldOf<F>): FieldErrors<F> {
  const fields: Partial<Record<F, FormMessage>> = {};
  let form: FormMessage | undefined;
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    if (field) fields[field] ??= issue;
    else form ??= issue;
  }
  return form ? { fields, form } : { fields };
}

/** Whether a form has anything to show. */
export const hasErrors = <F extends string>(errors: FieldErrors<F>) =>
  errors.form !== undefined || Object.keys(errors.fields).length > 0;
