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
  /** A colon of the sentence: not in an address (https://) nor between two characters (a CSS selector's p:first). */
  const sentenceColons = (text: string) => [...text.matchAll(/(.?):(?!\/\/)(?=\s|$|\{)/g)];

  it('puts a narrow no-break space (U+202F) before every colon in French, and none in English', () => {
    const frWrong = texts(fr).filter(([, text]) => sentenceColons(text).some((match) => match[1] !== '\u202f'));
    expect(frWrong).toEqual([]);
    const enWrong = texts(en).filter(([, text]) => sentenceColons(text).some((match) => /\s/.test(match[1] ?? '')));
    expect(enWrong).toEqual([]);
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
