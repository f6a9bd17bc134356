import { describe, expect, it } from 'vitest';
import { checkoutAmount } from './checkoutAmount.ts';

describe('checkoutAmount', () => {
  it('prints the amount in its own currency, without converting it', () => {
    expect(checkoutAmount(2250, 'eur', 'en')).toBe('2,250.00 €');
    expect(checkoutAmount(2418.48, 'usd', 'en')).toBe('$2,418.48');
    expect(checkoutAmount(2250, 'eur', 'fr')).toBe('2 250,00 €');
  });
});
