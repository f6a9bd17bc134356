import { describe, expect, it } from 'vitest';
import en from './en.json';
import fr from './fr.json';
import { flattenKeys } from './keys.ts';

function valueAt(catalogue: unknown, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogue);
}

describe('translation catalogues', () => {
  it('have exactly the same keys in en and fr', () => {
    expect(flattenKeys(fr)).toEqual(flattenKeys(en));
  });

  it('have a non-empty string for every key', () => {
    for (const catalogue of [en, fr]) {
      for (const key of flattenKeys(catalogue)) {
        const value = valueAt(catalogue, key);
        expect(typeof value === 'string' && value.trim() !== '', key).toBe(true);
      }
    }
  });

  it('hold the texts fixed by the specification', () => {
    expect(en.common.signOutConfirm).toBe('Sign out?');
    expect(fr.common.signOutConfirm).toBe('Voulez-vous vraiment vous déconnecter?');
    expect(en.common.notAvailableYet).toBe('This page is not available yet.');
    expect(fr.common.notAvailableYet).toBe("Cette page n'est pas encore disponible.");
    expect([en.language.en, en.language.fr]).toEqual(['English', 'Français']);
    expect([en.currency.btc, en.currency.eur, en.currency.usd]).toEqual(['Bitcoin', 'Euro', 'US Dollar']);
  });
});

describe('flattenKeys', () => {
  it('lists nested leaves with dots, sorted', () => {
    expect(flattenKeys({ b: { y: '1', x: '2' }, a: '3' })).toEqual(['a', 'b.x', 'b.y']);
  });
});

describe('French punctuation (issue 26)', () => {
  /** Every text of a catalogue with its key. */
  const texts = (catalogue: unknown) =>
    flattenKeys(catalogue).map((key) => [key, String(valueAt(catalogue, key))] as const);
  /**
   * A colon, semicolon, question or exclamation mark ending a clause: not in an address (https://, ?page=) nor
   * between two characters (a CSS selector's p:first).
   */
  const sentencePunctuation = (text: string) => [...text.matchAll(/(.?)[:;?!](?!\/\/)(?=\s|$|\{|»)/g)];
  /** French typography: a narrow no-break space (U+202F) before each, so that the mark never starts a line. */
  const frenchWrong = (text: string) => sentencePunctuation(text).some((match) => match[1] !== '\u202f');
  /** The specification fixes this text as it is, without the space (spec 01, sign-out). */
  const SPEC_VERBATIM = new Set(['common.signOutConfirm']);

  it('puts a narrow no-break space (U+202F) before : ; ? ! in French, and no space in English', () => {
    const frWrong = texts(fr).filter(([key, text]) => !SPEC_VERBATIM.has(key) && frenchWrong(text));
    expect(frWrong).toEqual([]);
    const enWrong = texts(en).filter(([, text]) =>
      sentencePunctuation(text).some((match) => /\s/.test(match[1] ?? '')),
    );
    expect(enWrong).toEqual([]);
  });

  it('follows the same rule in the French texts kept outside the catalogue', async () => {
    const { TERMS_FR } = await import('../features/publisher-terms/content/terms.fr.ts');
    const strings = (node: unknown): string[] =>
      typeof node === 'string' ? [node] : typeof node === 'object' && node ? Object.values(node).flatMap(strings) : [];
    expect(strings(TERMS_FR).filter(frenchWrong)).toEqual([]);
    const { PUBLISHER_AD_VALIDATION_TEXTS: validation } =
      await import('../features/publisher-ad-validation/utils/publisherAdValidationTexts.ts');
    const validationTexts = Object.values(validation).map((text) => (typeof text === 'string' ? text : text('X')));
    expect(validationTexts.filter(frenchWrong)).toEqual([]);
    const { readFileSync } = await import('node:fs');
    const formatHelp = readFileSync(
      new URL('../features/advertiser-ads/components/FormatHelp.tsx', import.meta.url),
      'utf8',
    );
    const jsxTexts = [...formatHelp.matchAll(/>([^<>{}]+)</g)].map((match) => match[1]!);
    expect(jsxTexts.filter(frenchWrong)).toEqual([]);
  });

  it('leaves the colon after a label to the catalogue (common.labelValue), never to a component', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const root = new URL('..', import.meta.url).pathname;
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.tsx'));
    const glued = sources.filter((file) => /\{t\([^)]*\)\}\s*:/.test(readFileSync(join(root, file), 'utf8')));
    expect(glued).toEqual([]);
    expect(fr.common.labelValue).toBe('{{label}}\u202f:');
    expect(en.common.labelValue).toBe('{{label}}:');
  });
});
