import { describe, expect, it } from 'vitest';
import { csvBlob, toCsv } from './csv.ts';

describe('toCsv', () => {
  it('joins cells with commas and lines with CRLF, quoting what needs it', () => {
    expect(
      toCsv(
        ['url', 'impressions'],
        [
          ['https://a.example/?x=1,2', 10],
          ['say "hi"', null],
        ],
      ),
    ).toBe('url,impressions\r\n"https://a.example/?x=1,2",10\r\n"say ""hi""",\r\n');
  });

  it.each([
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
    ['+33 1 23', "'+33 1 23"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['https://a.example/=x', 'https://a.example/=x'],
  ])('neutralises a text cell a spreadsheet would run: %j', (value, cell) => {
    expect(toCsv(['url'], [[value]])).toBe(`url\r\n${cell}\r\n`);
  });

  it('leaves numbers as numbers, negative ones too', () => {
    expect(toCsv(['n'], [[-5]])).toBe('n\r\n-5\r\n');
  });

  it('is saved with a UTF-8 byte order mark, so that Excel reads accents and currency signs', async () => {
    const bytes = new Uint8Array(await csvBlob('brand\r\nCafé €\r\n').arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('brand\r\nCafé €\r\n');
  });
});
