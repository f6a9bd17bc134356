/** A clause of the terms: its paragraphs, and an optional list after them. */
export interface TermsSection {
  /** Stable across languages, for anchors and tests. */
  id: string;
  title: string;
  paragraphs: readonly string[];
  items?: readonly string[];
}

/** The publisher terms of use in one language (specification 02, section 2.10). */
export interface TermsDocument {
  lang: 'en' | 'fr';
  title: string;
  /** When this version took effect, as shown. */
  updated: string;
  intro: readonly string[];
  sections: readonly TermsSection[];
}
