#!/usr/bin/env node
// Runs before `npm test`: installs what the tests need on a fresh machine, then builds the web app
// that the end-to-end tests open. Uses only Node's own modules, since node_modules may not exist yet.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command) => execSync(command, { cwd: root, stdio: 'inherit' });

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  console.log('pretest: installing npm packages');
  run('npm install --no-audit --no-fund');
}

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const chromium = process.env.CHROMIUM_PATH ?? CHROMIUM_CANDIDATES.find((path) => existsSync(path));
if (!chromium) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(
      'pretest: the end-to-end tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install -y chromium)\n' +
        'or set CHROMIUM_PATH to a Chromium or Chrome binary, then run npm test again.',
    );
    process.exit(1);
  }
  console.log('pretest: installing Chromium with apt-get');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, { cwd: root, stdio: 'inherit', env });
    if (result.status !== 0) {
      console.error(`pretest: apt-get ${args.join(' ')} failed; install Chromium by hand or set CHROMIUM_PATH.`);
      process.exit(1);
    }
  }
}

console.log('pretest: building the web app');
run('npm run build');
