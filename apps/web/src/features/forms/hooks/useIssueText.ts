import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { TIssue, TIssueKey } from '@helium/contracts';
import { decimalPlaces } from '@helium/domain/decimals';
import { useFormat } from '../../format/hooks/useFormat.ts';
import type { FormMessage } from '../utils/issues.ts';

/**
 * Words an issue in the user's language (`validation.<key>`), its limits as the screen writes numbers (1 000 in
 * French); an issue without a key (an older server) is `validation.invalid`, never the server's English text.
 */
export function useIssueText(): (issue: FormMessage | undefined | null) => string | undefined {
  const { t } = useTranslation();
  const format = useFormat();
  return useCallback(
    (issue) => {
      if (!issue) return undefined;
      if ('text' in issue) return issue.text;
      const values = Object.fromEntries(
        Object.entries(issue.values ?? {}).map(([name, value]) => [
          name,
          typeof value === 'number' ? format.number(value, decimalPlaces(value)) : value,
        ]),
      );
      const key: `validation.${TIssueKey}` = `validation.${issue.key ?? 'invalid'}`;
      const { min = '', max = '', decimals = '', email = '' } = values;
      const text = t(key, { min, max, decimals, email });
      // How long the text sent was, after the limit: "At most 40 characters (300 typed)."
      const typed = issue.values?.typed;
      return issue.key === 'tooLong' && typed !== undefined
        ? `${text} ${t('validation.typed', { typed: values.typed })}`
        : text;
    },
    [t, format],
  );
}

/** The issue of a text longer than its limit, as the contract words it (shown while the user types). */
export function tooLongIssue(path: string, value: string, max: number): TIssue | undefined {
  const typed = value.trim().length;
  return typed > max
    ? { path, message: `At most ${max} characters`, key: 'tooLong', values: { max, typed } }
    : undefined;
}

/** The message of a text over its limit as it is typed (the contract's words for it), or undefined within it. */
export function useTooLongText(): (value: string, max: number) => string | undefined {
  const issueText = useIssueText();
  return useCallback((value, max) => issueText(tooLongIssue('', value, max)), [issueText]);
}
