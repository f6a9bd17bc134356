import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The API server in development; the built app is served by it from the same origin. */
const API_ORIGIN = 'http://localhost:3000';
const API_PREFIXES = ['/api', '/sanctum', '/healthz', '/media', '/serve', '/signin-as'];

/** Text files worth compressing; fonts (woff2) and images are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this size a compressed copy saves less than its extra round of headers. */
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy next to every text file of the build, once,
 * so that the server sends them as they are (`preCompressed`, apps/api/src/http/web-app.ts) instead of
 * compressing each answer again.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'helium-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const entry of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
        const file = join(entry.parentPath, entry.name);
        const content = readFileSync(file);
        if (content.length < MIN_COMPRESS_BYTES) continue;
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(content, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: content.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    // Same origin as in production, so the session and XSRF cookies behave identically.
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix, { target: API_ORIGIN, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across deploys. These groups take
        // only what the first visit needs ($initial): a group also takes its modules' dependencies, and the one
        // screen's chart library would otherwise load for everybody (docs/performance.md, the web app's size).
        codeSplitting: {
          groups: [
            // Zod with the one line that makes it jitless (src/api/zod-jitless.ts): every chunk that builds a
            // schema imports this one, so zod never probes `new Function`, which the Content-Security-Policy
            // forbids (the browser would report each probe as a violation).
            { name: 'zod', tags: ['$initial'], test: /(node_modules[\\/]zod[\\/]|src[\\/]api[\\/]zod-jitless\.ts$)/ },
            {
              name: 'react',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
            },
            {
              name: 'mantine',
              tags: ['$initial'],
              test: /node_modules[\\/](@mantine|@floating-ui|react-remove-scroll|react-number-format|react-transition-group|clsx|tslib|use-)/,
            },
            { name: 'vendor', tags: ['$initial'], test: /node_modules[\\/]/ },
            // The advertiser's date picker, loaded with the one screen that shows it (its chart is plain SVG).
            { name: 'dates', test: /node_modules[\\/](@mantine[\\/]dates|dayjs)[\\/]/ },
          ],
        },
      },
    },
  },
});
