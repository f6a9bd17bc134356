import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '@helium/domain/format';
import en from './en.json';
import fr from './fr.json';

export const resources = { en: { translation: en }, fr: { translation: fr } } as const;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: (typeof resources)['en'];
  }
}

void i18n.use(initReactI18next).init({
  resources,
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'fr'],
  defaultNS: 'translation',
  // React already escapes what it renders.
  interpolation: { escapeValue: false },
  // Resources are bundled, so the first render can already be translated.
  initAsync: false,
});

/** Makes the interface follow a language: the catalogue in use and the page's `lang` for assistive technology. */
export function applyLocale(locale: Locale): void {
  if (i18n.resolvedLanguage !== locale) void i18n.changeLanguage(locale);
  document.documentElement.lang = locale;
}

export default i18n;
