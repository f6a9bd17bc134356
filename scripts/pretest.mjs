#!/usr/bin/env node
// Runs before `npm test`: installs what the tests need on a fresh machine, then builds the web app
// that the end-to-end tests open. Uses only Node's own modules, since node_modules may not exist yet.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemTool } from './system-tools.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (command) => execSync(command, { cwd: root, stdio: 'inherit' });

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  console.log('pretest: installing npm packages');
  run('npm install --no-audit --no-fund');
}

// Chromium for the end-to-end tests, ffmpeg for the upload tests (and the server they start).
for (const tool of ['chromium', 'ffmpeg']) {
  if (!ensureSystemTool(tool, 'pretest')) process.exit(1);
}

console.log('pretest: building the web app');
run('npm run build');
