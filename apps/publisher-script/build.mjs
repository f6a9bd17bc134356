/* global URL, console */
// Builds the publisher script into one minified IIFE (dist/helium.js) served by the API at /serve/script.js.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const outfile = `${here}dist/helium.js`;
await build({
  entryPoints: [`${here}src/helium.ts`],
  outfile,
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['es2019'],
  legalComments: 'none',
  logLevel: 'warning',
});
const code = readFileSync(outfile);
console.log(`publisher script: ${code.length} bytes, ${gzipSync(code, { level: 9 }).length} bytes gzipped`);
