import { describe, expect, it } from 'vitest';
import { isSingleLineText } from '../src/text.ts';

describe('isSingleLineText', () => {
  it.each([
    ['Nordvik Outdoor', true],
    ['Atelier Céramique — été', true],
    ['Ñandú 北京 ✓', true],
    ['', true],
    ['Acme\nInc', false],
    ['Acme\r\nInc', false],
    ['Acme\tInc', false],
    ['Acme\u0000', false],
    ['\u001bAcme', false],
    ['Acme\u007f', false],
    ['Acme\u0085Inc', false],
    ['Acme\u009bInc', false],
    ['Acme\u2028Inc', false],
    ['Acme\u2029Inc', false],
  ])('%j: %s', (text, singleLine) => {
    expect(isSingleLineText(text)).toBe(singleLine);
  });
});
