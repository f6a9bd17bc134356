import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@helium/domain/format';
import { nameCloseButtons } from '../app/theme.ts';
import type en from './en.json';

/**
 * The catalogues, one chunk each: a visit loads its user's language only (docs/performance.md, "First screens"),
 * the other one when the language changes. Their keys are typed from the English one (fr has the same keys:
 * catalogue.test.ts).
 */
const CATALOGUES: Record<Locale, () => Promise<{ default: typeof en }>> = {
  en: () => import('./en.json'),
  fr: () => import('./fr.json'),
};

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}

void i18n.use(initReactI18next).init({
  resources: {},
  // Each language arrives with its catalogue (loadCatalogue); none is fetched by i18next itself.
  partialBundledLanguages: true,
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'fr'],
  defaultNS: 'translation',
  // React already escapes what it renders.
  interpolation: { escapeValue: false },
  initAsync: false,
});

// Every dialog's close button is named in the language of the moment (app/theme.ts).
nameCloseButtons(() => i18n.t('common.close'));

/** Loads a language's catalogue into i18next, once. */
export async function loadCatalogue(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation')) return;
  const { default: catalogue } = await CATALOGUES[locale]();
  i18n.addResourceBundle(locale, 'translation', catalogue);
}

/**
 * Makes the interface follow a language: its catalogue (loaded first, so no text shows untranslated), the
 * catalogue in use and the page's `lang` for assistive technology.
 */
export async function applyLocale(locale: Locale): Promise<void> {
  await loadCatalogue(locale);
  if (i18n.resolvedLanguage !== locale) await i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

/** The catalogue of the language in use, for a screen shown before any user's language is known (en at first). */
export function loadCurrentCatalogue(): Promise<void> {
  return applyLocale(i18n.language === 'fr' ? 'fr' : 'en');
}

export default i18n;
