import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { webBundleSizes } from './web-bundle.ts';

const dist = mkdtempSync(join(os.tmpdir(), 'helium-web-bundle-'));
afterAll(() => rmSync(dist, { recursive: true, force: true }));

const files: Record<string, string> = {
  'index-a1.js': 'console.log("app shell");'.repeat(20),
  'react-b2.js': 'export const react = 1;'.repeat(200),
  'index-c3.css': 'body{margin:0}'.repeat(10),
  'charts-d4.js': Array.from({ length: 500 }, (_, n) => `export const c${n} = ${n * 7919};`).join(''),
  'logo.svg': '<svg></svg>',
};

describe("the web app's sizes for the benchmark", () => {
  it('counts as the first visit what index.html loads, and every script and stylesheet as the whole build', () => {
    mkdirSync(join(dist, 'assets'));
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dist, 'assets', name), content);
    writeFileSync(
      join(dist, 'index.html'),
      '<script type="module" crossorigin src="/assets/index-a1.js"></script>' +
        '<link rel="modulepreload" crossorigin href="/assets/react-b2.js">' +
        '<link rel="stylesheet" crossorigin href="/assets/index-c3.css"><link rel="icon" href="/assets/logo.svg">',
    );
    const gz = (name: string) => gzipSync(files[name]!, { level: 9 }).length;
    const raw = (name: string) => Buffer.byteLength(files[name]!);
    const sizes = webBundleSizes(dist);
    const initial = ['index-a1.js', 'react-b2.js', 'index-c3.css'];
    expect(sizes.initial).toEqual({
      files: 3,
      bytes: initial.reduce((sum, name) => sum + raw(name), 0),
      gzipBytes: initial.reduce((sum, name) => sum + gz(name), 0),
    });
    const all = [...initial, 'charts-d4.js'];
    expect(sizes.total).toEqual({
      files: 4,
      bytes: all.reduce((sum, name) => sum + raw(name), 0),
      gzipBytes: all.reduce((sum, name) => sum + gz(name), 0),
    });
    expect(sizes.largest).toEqual({ file: 'charts-d4.js', gzipBytes: gz('charts-d4.js') });
  });
});
