// Whether `npm run build` must run before `npm start`: the build is missing, or a source is newer than it.
// Uses only Node's own modules (it runs in prestart, also in a tree that `npm prune --omit=dev` left).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** What `npm run build` writes: the compiled API, the web app and the publisher script. */
export const BUILD_OUTPUTS = [
  'apps/api/dist/main.js',
  'apps/web/dist/index.html',
  'apps/publisher-script/dist/helium.js',
  'apps/publisher-script/dist/extras.js',
];

/**
 * What the build compiles. Files read at run time from the source tree (migrations, mail-proxy-ranges.txt, seed
 * media) are not compiled, so they do not make the build stale; nor do tests.
 */
export const BUILD_SOURCES = [
  'package.json',
  'apps/api/package.json',
  'apps/api/build.mjs',
  'apps/api/src',
  'apps/web/package.json',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/public',
  'apps/web/src',
  'apps/publisher-script/build.mjs',
  'apps/publisher-script/bundle.mjs',
  'apps/publisher-script/content-version.mjs',
  'apps/publisher-script/src',
  'packages/domain/package.json',
  'packages/domain/src',
  'packages/contracts/package.json',
  'packages/contracts/src',
  'packages/db/package.json',
  'packages/db/src',
];

const isTest = (name) => /\.test\.tsx?$/.test(name);

/** The most recently modified file under `paths` (files or folders, relative to `root`), or null when none. */
export function newestFile(root, paths) {
  let newest = null;
  const pending = paths.map((path) => join(root, path)).filter((path) => existsSync(path));
  while (pending.length > 0) {
    const path = pending.pop();
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (!isTest(entry)) pending.push(join(path, entry));
    } else if (!newest || stat.mtimeMs > newest.mtimeMs) {
      newest = { path, mtimeMs: stat.mtimeMs };
    }
  }
  return newest;
}

/**
 * Why the build must run, or null when it is current: an output is missing, or the newest source (`newestSource`,
 * as newestFile answers) was modified after the oldest output (`outputs`: path and modification time, null when
 * missing).
 */
export function whyBuildIsStale(outputs, newestSource) {
  const missing = outputs.find((output) => output.mtimeMs === null);
  if (missing) return `${missing.path} is missing`;
  const oldest = Math.min(...outputs.map((output) => output.mtimeMs));
  if (newestSource && newestSource.mtimeMs > oldest) return `${newestSource.path} changed after the last build`;
  return null;
}

/** whyBuildIsStale for the repository at `root`. */
export function whyBuildIsStaleAt(root) {
  const outputs = BUILD_OUTPUTS.map((path) => {
    const file = join(root, path);
    return { path, mtimeMs: existsSync(file) ? statSync(file).mtimeMs : null };
  });
  const newest = newestFile(root, BUILD_SOURCES);
  return whyBuildIsStale(outputs, newest && { ...newest, path: newest.path.slice(root.length + 1) });
}

/** Whether `name` can be imported from the workspace `at` (npm may keep a package in the workspace's node_modules). */
function installed(name, at) {
  try {
    createRequire(join(root, at, 'package.json')).resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

/** Runs `npm run build` when the build is stale (saying why, after `prefix`); exits when it cannot be made here. */
export function ensureBuild(prefix) {
  const stale = whyBuildIsStaleAt(root);
  if (!stale) return;
  // `npm prune --omit=dev` removed the compilers: a stale build cannot be remade here.
  if (!installed('esbuild', 'apps/api') || !installed('vite', 'apps/web')) {
    console.error(
      `${prefix}: the build must be made again (${stale}), but its tools are not installed ` +
        '(npm prune --omit=dev removes them): run `npm ci && npm run build` first.',
    );
    process.exit(1);
  }
  console.log(`${prefix}: building (${stale})`);
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
