import { API_TOKEN_NAME_MAX } from '@helium/contracts';
import { isSingleLineText } from '@helium/domain/text';

/** Why a name typed for a new token is refused before it is sent (the contract's own rules), or null. */
export type TokenNameProblem = 'empty' | 'tooLong' | 'notOneLine';

export function tokenNameProblem(name: string): TokenNameProblem | null {
  if (!isSingleLineText(name)) return 'notOneLine';
  const trimmed = name.trim();
  if (trimmed === '') return 'empty';
  if (trimmed.length > API_TOKEN_NAME_MAX) return 'tooLong';
  return null;
}
