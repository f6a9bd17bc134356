import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, runnerImport, type Plugin } from 'vite';
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

/** A zod schema (zod 4 keeps its internals under `_zod`). */
const isSchema = (value: unknown) => typeof value === 'object' && value !== null && '_zod' in value;

/**
 * What the browser keeps of one export of the contracts, as JavaScript source, or null to leave it out: a call
 * without its schemas (its method, path and access), plain data (the constants) as they are. Schemas, functions
 * and anything else are left out, so a screen that imports one fails the build (MISSING_EXPORT) instead of
 * bringing zod back.
 */
function browserValue(value: unknown): string | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : null;
  if (Array.isArray(value)) {
    const items = value.map(browserValue);
    return items.every((item) => item !== null) ? `[${items.join(',')}]` : null;
  }
  if (typeof value !== 'object' || isSchema(value) || Object.getPrototypeOf(value) !== Object.prototype) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.path === 'string' && isSchema(record.response)) {
    const { method, path, access, signedBy } = record;
    return JSON.stringify({ method, path, access, ...(signedBy ? { signedBy } : {}) });
  }
  const entries = Object.entries(record).map(([key, item]) => [key, browserValue(item)] as const);
  return entries.every(([, item]) => item !== null)
    ? `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${item}`).join(',')}}`
    : null;
}

/**
 * The contracts as the built web app needs them: the calls' paths and the shared constants, without zod. The
 * web app never parses with the schemas (the API validates every request and answer; the client only sends a
 * call to its path and types its answer), yet importing a call from `@helium/contracts` brought zod and every
 * call's schema (35 KB compressed) to every screen. The contracts are read once at build time, in Node; the
 * types still come from the contracts themselves (tsc), and development and tests use them unchanged.
 */
function contractsWithoutSchemas(): Plugin {
  const id = '\0helium-contracts-for-the-browser';
  let exports: Promise<Map<string, string>> | null = null;
  /** The browser's exports by name, read once: each is a module of its own, so it goes to the chunk that uses it. */
  const browserExports = () =>
    (exports ??= runnerImport<Record<string, unknown>>('@helium/contracts', {
      configFile: false,
      logLevel: 'error',
    }).then(
      ({ module }) =>
        new Map(
          Object.entries(module).flatMap(([name, value]) => {
            const source = browserValue(value);
            return source === null ? [] : [[name, source] as const];
          }),
        ),
    ));
  return {
    name: 'helium-contracts-without-schemas',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return source === '@helium/contracts' || source.startsWith(`${id}/`)
        ? source.startsWith(id)
          ? source
          : id
        : null;
    },
    async load(moduleId) {
      if (moduleId === id) {
        const names = [...(await browserExports()).keys()];
        return names.map((name) => `export { ${name} } from '${id}/${name}';`).join('\n');
      }
      if (!moduleId.startsWith(`${id}/`)) return null;
      const name = moduleId.slice(id.length + 1);
      return `export const ${name} = ${(await browserExports()).get(name)};`;
    },
  };
}

/** Mantine's components of the shell and of most screens (the chunk group 'mantine-screens'). */
const MOST_USED_COMPONENTS = [
  'ActionIcon',
  'Alert',
  'Anchor',
  'AppShell',
  'Badge',
  'Box',
  'Burger',
  'Button',
  'Center',
  'Checkbox',
  'CloseButton',
  'Collapse',
  'Group',
  'Image',
  'Loader',
  'LoadingOverlay',
  'Menu',
  'Modal',
  'NavLink',
  'Paper',
  'Popover',
  'Portal',
  'Progress',
  'ScrollArea',
  'Select',
  'SimpleGrid',
  'Slider',
  'Stack',
  'Switch',
  'Table',
  'Text',
  'TextInput',
  'ThemeIcon',
  'Title',
  'Tooltip',
  'UnstyledButton',
];

export default defineConfig({
  plugins: [contractsWithoutSchemas(), react(), precompress()],
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
            // The app's own code of the first chunk, the sign-in screen's: kept out of the groups below.
            { name: 'app', tags: ['$initial'] },
            // The rest of Mantine in two chunks rather than twenty small ones (each answer costs about 1 KB of
            // headers): the components of the shell and of most screens, with their dependencies, then the others
            // (number fields, pagination, accordions...), which the advertiser's Activity screen does not load.
            {
              name: 'mantine-screens',
              test: new RegExp(
                `node_modules[\\\\/](@mantine[\\\\/](hooks|store)|@mantine[\\\\/]core[\\\\/]esm[\\\\/](core|utils)|@mantine[\\\\/]core[\\\\/]esm[\\\\/]components[\\\\/](${MOST_USED_COMPONENTS.join('|')})[\\\\/])`,
              ),
            },
            {
              name: 'mantine-more',
              test: /node_modules[\\/](@mantine[\\/]core|@floating-ui|react-remove-scroll|react-number-format|react-transition-group|clsx|tslib|use-callback-ref|use-sidecar)/,
            },
            // The advertiser's date picker's calendars, loaded when the picker first opens (RangeCalendar.tsx).
            { name: 'dates', test: /node_modules[\\/](@mantine[\\/]dates|dayjs)[\\/]/ },
            // What every signed-in screen loads, and the sign-in screen does not: the guards, the shell, i18next and
            // TanStack Query (this module and its dependencies), and the app's code that several screens share.
            {
              name: 'signed-in',
              test: /(src[\\/]app[\\/]signedIn\.tsx$|node_modules[\\/](@tanstack|i18next|react-i18next)[\\/])/,
            },
          ],
        },
      },
    },
  },
});
