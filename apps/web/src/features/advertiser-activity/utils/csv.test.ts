import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

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
});
