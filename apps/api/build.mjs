/* global URL, console, process */
// Compiles the API for `npm start`: one ES module per command (the server, backup, restore) in apps/api/dist, run
// by plain `node`. The workspace packages (@helium/*, TypeScript) are bundled in; every other package stays an
// import of node_modules, so it must be a dependency (not a devDependency) for `npm prune --omit=dev`.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const apiDir = fileURLToPath(new URL('.', import.meta.url));
const outdir = fileURLToPath(new URL('./dist', import.meta.url));

/** npm packages stay imports; the workspace's own packages are compiled into the bundle. */
const keepPackagesExternal = {
  name: 'keep-packages-external',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@helium/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Files read at run time beside their module (the migrations, the PGlite worker, mail-proxy-ranges.txt, the seed's
 * media, the web app's and publisher script's builds) are found from `import.meta.url`. In the bundle each module's
 * `import.meta.url` still names its source file (relative to dist, so the built tree can move): no list of assets
 * to copy, and no path that differs between `npm run dev` and `npm start`.
 */
const sourceModuleUrls = {
  name: 'source-module-urls',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, async (args) => {
      const code = await readFile(args.path, 'utf8');
      if (!code.includes('import.meta.url')) return { contents: code, loader: 'ts' };
      const fromDist = relative(outdir, args.path);
      const sourceUrl = `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`;
      return { contents: code.replaceAll('import.meta.url', sourceUrl), loader: 'ts', resolveDir: dirname(args.path) };
    });
  },
};

const started = Date.now();
// Chunks are named by their content: the previous build's would pile up.
await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: apiDir,
  entryPoints: {
    main: 'src/main.ts',
    backup: 'src/backup/backup-command.ts',
    restore: 'src/backup/restore-command.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  plugins: [keepPackagesExternal, sourceModuleUrls],
  logLevel: 'warning',
});
console.log(`api: compiled into ${relative(process.cwd(), outdir) || outdir} in ${Date.now() - started} ms`);
