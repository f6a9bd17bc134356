#!/usr/bin/env node
// Runs before `npm start`: installs Debian's ffmpeg when it is missing and you are root, then builds the API and
// the web app when the build is missing or older than its sources. Without ffmpeg the server still starts (it
// says so in its log): uploaded images are then checked by their header only and videos get no poster.
import { execSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { whyBuildIsStaleAt } from './build-state.mjs';
import { ensureSystemTool } from './system-tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether `name` can be imported from the workspace `at` (npm may keep a package in the workspace's node_modules). */
function installed(name, at) {
  try {
    createRequire(join(root, at, 'package.json')).resolve(`${name}/package.json`);
    return true;
  } catch {
    return false;
  }
}

ensureSystemTool('ffmpeg', 'prestart');

const stale = whyBuildIsStaleAt(root);
if (stale) {
  // `npm prune --omit=dev` removed the compilers: a stale build cannot be remade here.
  if (!installed('esbuild', 'apps/api') || !installed('vite', 'apps/web')) {
    console.error(
      `prestart: the build must be made again (${stale}), but its tools are not installed ` +
        '(npm prune --omit=dev removes them): run `npm ci && npm run build` first.',
    );
    process.exit(1);
  }
  console.log(`prestart: building (${stale})`);
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
