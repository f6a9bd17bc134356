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
    ['\u202eeoD nhoJ', false],
    ['John \u2066Doe\u2069', false],
    ['\u200b', false],
    ['Acme\u2060', false],
    ['\ufeffAcme', false],
    ['\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645', true],
    ['\u{1f469}\u200d\u{1f4bb} Studio', true],
  ])('%j: %s', (text, singleLine) => {
    expect(isSingleLineText(text)).toBe(singleLine);
  });
});
