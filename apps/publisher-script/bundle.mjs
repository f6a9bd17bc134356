/* global URL */
// How the publisher script is built: build.mjs writes it, test/size.test.ts measures it, the same way.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { minify } from 'terser';
import { contentVersion } from './content-version.mjs';

const source = (file) => fileURLToPath(new URL(`./src/${file}`, import.meta.url));

/** Minified, without imports, for what older browsers parse (es2021's `||=` is the newest syntax it needs). */
const common = {
  bundle: true,
  minify: true,
  target: ['es2021'],
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
  // Not the repository's tsconfig: its `strict` would prefix a "use strict" the script does not need (the
  // TypeScript checks stay those of tsconfig.json, run by `npm run typecheck`).
  tsconfigRaw: {},
};

/**
 * The script every publisher page loads (`helium.js`: one IIFE) and the module it loads where needed
 * (`extras.js`: the corner box and the history wrapper), whose version the script carries in its address.
 * terser goes over esbuild's output: its compressor finds some 40 bytes more, on a file with a 2 KB budget.
 */
export async function bundlePublisherScript() {
  const extras = (await build({ ...common, entryPoints: [source('extras.ts')], format: 'esm' })).outputFiles[0].text;
  const bundled = await build({
    ...common,
    entryPoints: [source('helium.ts')],
    format: 'iife',
    define: { EXTRAS_VERSION: JSON.stringify(contentVersion(extras)) },
    // `import()` of extras.js stays as it is (every browser that has `||=` has it).
    supported: { 'dynamic-import': true },
  });
  const script = await minify(bundled.outputFiles[0].text, {
    ecma: 2020,
    compress: { passes: 2, unsafe: true, unsafe_arrows: true, pure_getters: true, toplevel: true },
    mangle: { toplevel: true },
    toplevel: true,
  });
  return { script: script.code, extras };
}
