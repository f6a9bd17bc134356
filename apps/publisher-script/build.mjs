/* global URL, console */
// Builds the publisher script (dist/helium.js, served at /serve/script.js) and the module it loads where needed
// (dist/extras.js, served at /serve/extras.js).
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { bundlePublisherScript } from './bundle.mjs';

const dist = new URL('./dist/', import.meta.url);
const { script, extras } = await bundlePublisherScript();
mkdirSync(dist, { recursive: true });
writeFileSync(new URL('helium.js', dist), script);
writeFileSync(new URL('extras.js', dist), extras);
const sizes = (code) => `${code.length} bytes, ${gzipSync(code, { level: 9 }).length} bytes gzipped`;
console.log(`publisher script: ${sizes(script)}; its extras: ${sizes(extras)}`);
