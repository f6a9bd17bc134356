import { inflateSync } from 'node:zlib';

/*
 * Reads back the text a pdfkit document shows, for tests: every content stream (inflated when compressed), every
 * `[...] TJ` text run, its hex strings decoded from the standard fonts' WinAnsi encoding. One line per run.
 */

/** WinAnsi codes 0x80-0x9F that differ from Latin-1. */
const WIN_ANSI: Record<number, string> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

function decodeHex(hex: string): string {
  let text = '';
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const code = parseInt(hex.slice(i, i + 2), 16);
    text += WIN_ANSI[code] ?? String.fromCharCode(code);
  }
  return text;
}

/** The text runs of a PDF made by pdfkit with its standard fonts, one per line. */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const runs: string[] = [];
  const streamPattern = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let match = streamPattern.exec(raw); match; match = streamPattern.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const bytes = pdf.subarray(start, end);
    let content: string;
    try {
      content = (match[1] ?? '').includes('/FlateDecode')
        ? inflateSync(bytes).toString('latin1')
        : bytes.toString('latin1');
    } catch {
      continue;
    }
    for (const run of content.matchAll(/\[((?:<[0-9a-fA-F]*>|[^\]])*)\]\s*TJ/g)) {
      const pieces = [...(run[1] ?? '').matchAll(/<([0-9a-fA-F]*)>/g)].map((hex) => decodeHex(hex[1] ?? ''));
      runs.push(pieces.join(''));
    }
    streamPattern.lastIndex = end;
  }
  return runs.join('\n');
}
