/* global URL, console */
// Builds the publisher script into one minified IIFE (dist/helium.js) served by the API at /serve/script.js.
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { buildOptions } from './build-options.mjs';

const outfile = new URL('./dist/helium.js', import.meta.url);
await build({ ...buildOptions, outfile: outfile.pathname, logLevel: 'warning' });
const code = readFileSync(outfile);
console.log(`publisher script: ${code.length} bytes, ${gzipSync(code, { level: 9 }).length} bytes gzipped`);
