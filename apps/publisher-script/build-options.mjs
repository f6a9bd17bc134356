/* global URL */
// How the publisher script is built: build.mjs writes it, test/size.test.ts measures it with the same options.
import { fileURLToPath } from 'node:url';

/** One IIFE without imports, minified for its size budget (test/size.test.ts). */
export const buildOptions = {
  entryPoints: [fileURLToPath(new URL('./src/helium.ts', import.meta.url))],
  bundle: true,
  minify: true,
  format: 'iife',
  // What older browsers parse (optional catch binding is the newest syntax it needs).
  target: ['es2019'],
  legalComments: 'none',
  // Not the repository's tsconfig: its `strict` would prefix a "use strict" the script does not need (the
  // TypeScript checks stay those of tsconfig.json, run by `npm run typecheck`).
  tsconfigRaw: {},
};
