import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TCheckResult } from '@helium/contracts';
import { apiErrorMessage } from '../../../api/client.ts';
import {
  errorsByField,
  NO_ERRORS,
  refusalIssues,
  type FieldErrors,
  type FieldOf,
  type FormMessage,
} from '../utils/issues.ts';
import { tooLongIssue, useIssueText } from './useIssueText.ts';

/**
 * A form's errors, each beside its field in the user's language (issue 36, point 2). `check` shows the result of the
 * call's contract schema on the request, run before it is sent (`checkRequest(Schema, request)`, both imported from
 * their modules, `@helium/contracts/issues` and `@helium/contracts/<feature>`: the server's own rules, so nothing is
 * sent that it would refuse); `refused` places the server's refusal the same way. A field's Mantine `error` (`errorOf`) marks it
 * `aria-invalid` and names the message in its `aria-describedby`.
 */
export function useFieldErrors<F extends string>(fieldOf: FieldOf<F>) {
  const { t } = useTranslation();
  const issueText = useIssueText();
  const [errors, setErrors] = useState<FieldErrors<F>>(NO_ERRORS);

  /** The request parsed by its schema, or null with each field at fault marked (nothing is to be sent). */
  const check = useCallback(
    <T>(checked: TCheckResult<T>): T | null => {
      if (checked.success) {
        setErrors(NO_ERRORS);
        return checked.data;
      }
      setErrors(errorsByField(checked.issues, fieldOf));
      return null;
    },
    [fieldOf],
  );

  /**
   * Shows a failed call: the issues of a refusal beside their fields; another refusal or failure as the form's
   * message (`statusTexts` words a refusal's stable status in the user's language, else the server's text).
   */
  const refused = useCallback(
    (error: unknown, statusTexts: Record<string, string> = {}) => {
      const issues = refusalIssues(error);
      if (issues) {
        setErrors(errorsByField(issues, fieldOf));
        return;
      }
      const status = (error as { body?: { status?: unknown } } | null)?.body?.status;
      const text = (typeof status === 'string' ? statusTexts[status] : undefined) ?? apiErrorMessage(error);
      setErrors({ fields: {}, form: { text: text ?? t('common.error') } });
    },
    [fieldOf, t],
  );

  return useMemo(
    () => ({
      errors,
      check,
      refused,
      /** Replaces the errors shown (a rule of the screen's own, or none). */
      setErrors,
      /** A field's message; with `live`, a text over its limit is said as it is typed (never cut). */
      errorOf: (field: F, live?: { value: string; max: number }) =>
        issueText(errors.fields[field]) ?? (live ? issueText(tooLongIssue(field, live.value, live.max)) : undefined),
      /** The form's own message, or null. */
      formError: errors.form ? (issueText(errors.form) ?? null) : null,
      /** A field changed: its error goes until the next check. */
      clear: (field: F) =>
        setErrors((old) => {
          if (!(field in old.fields)) return old;
          const { [field]: _changed, ...others } = old.fields;
          return { ...old, fields: others as Partial<typeof old.fields> };
        }),
      /** Shows a message of the form as a whole (and no field's). */
      setFormError: (message: FormMessage | null) => setErrors(message ? { fields: {}, form: message } : NO_ERRORS),
    }),
    [errors, check, refused, issueText],
  );
}
