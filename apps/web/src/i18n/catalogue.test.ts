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
