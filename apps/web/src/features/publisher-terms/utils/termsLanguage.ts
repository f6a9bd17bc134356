import { TERMS_EN } from '../content/terms.en.ts';
import { TERMS_FR } from '../content/terms.fr.ts';
import type { TermsDocument } from '../content/types.ts';

export type TermsLang = TermsDocument['lang'];
export const TERMS_LANGS = ['fr', 'en'] as const satisfies readonly TermsLang[];

export function termsOf(lang: TermsLang): TermsDocument {
  return lang === 'fr' ? TERMS_FR : TERMS_EN;
}

function langOf(tag: string | null | undefined): TermsLang | null {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return primary === 'fr' || primary === 'en' ? primary : null;
}

/**
 * The language of the public terms: `?lang=fr|en` when the link says, else the first of the browser's languages
 * that is French or English, else French (the terms' reference text).
 */
export function publicTermsLang(search: string, browserLanguages: readonly string[]): TermsLang {
  const asked = langOf(new URLSearchParams(search).get('lang'));
  if (asked) return asked;
  for (const tag of browserLanguages) {
    const lang = langOf(tag);
    if (lang) return lang;
  }
  return 'fr';
}
