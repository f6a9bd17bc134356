import { describe, expect, it } from 'vitest';
import { publicTermsLang, termsOf } from './termsLanguage.ts';

describe('publicTermsLang', () => {
  it('follows the link, then the browser, then French', () => {
    expect(publicTermsLang('?lang=en', ['fr-FR'])).toBe('en');
    expect(publicTermsLang('?lang=FR', ['en-US'])).toBe('fr');
    expect(publicTermsLang('', ['de-DE', 'en-GB', 'fr'])).toBe('en');
    expect(publicTermsLang('?lang=de', ['fr-CA'])).toBe('fr');
    expect(publicTermsLang('', ['de-DE'])).toBe('fr');
    expect(publicTermsLang('', [])).toBe('fr');
  });
});

describe('the terms', () => {
  const all = (lang: 'en' | 'fr') => {
    const terms = termsOf(lang);
    return [
      terms.title,
      ...terms.intro,
      ...terms.sections.flatMap((section) => [section.title, ...section.paragraphs, ...(section.items ?? [])]),
    ].join('\n');
  };

  it('have the same clauses in both languages', () => {
    expect(termsOf('fr').sections.map((section) => section.id)).toEqual(
      termsOf('en').sections.map((section) => section.id),
    );
    expect(termsOf('fr').lang).toBe('fr');
    expect(termsOf('en').lang).toBe('en');
  });

  it('state every point of specification 02, section 2.10, in English', () => {
    const text = all('en');
    for (const point of [
      'cheque for an amount of less than 250 USD',
      'carried over',
      'within 75 days after the end of that Month',
      'within 60 days',
      'up to 1,000 USD per violation',
      'no more than 5% of the unique visitors',
      'at least twice the number of impressions agreed',
      'for 3 consecutive days',
      '5,000,000 impressions per day for display',
      '1,000,000 impressions per day for video',
      'within 30 days of the acceptance',
      'more than 30 consecutive days',
      'at least 5 days before',
      'in the 12 months preceding',
      'once per hour, per person, per creative',
      'UTC',
    ]) {
      expect(text, point).toContain(point);
    }
  });

  it('state every point of specification 02, section 2.10, in French', () => {
    const text = all('fr');
    for (const point of [
      "chèque d'un montant inférieur à 250 USD",
      'reporté',
      'dans les 75 jours suivant la fin de ce Mois',
      'dans les 60 jours',
      "jusqu'à 1 000 USD par infraction",
      'pas plus de 5 % des visiteurs uniques',
      'au moins égal au double',
      'pendant 3 jours consécutifs',
      "5 000 000 d'impressions par jour pour les annonces display",
      "1 000 000 d'impressions par jour pour les annonces vidéo",
      "dans les 30 jours suivant l'acceptation",
      'plus de 30 jours consécutifs',
      'au moins 5 jours avant',
      'au cours des 12 mois précédant',
      'une fois par heure, par personne et par création',
      'UTC',
    ]) {
      expect(text, point).toContain(point);
    }
  });
});
