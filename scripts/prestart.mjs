#!/usr/bin/env node
// Runs before `npm start`: installs Debian's ffmpeg when it is missing and you are root, then builds the web
// app. Without ffmpeg the server still starts (it says so in its log): uploaded images are then checked by
// their header only and videos get no poster.
import { execSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSystemTool } from './system-tools.mjs';

ensureSystemTool('ffmpeg', 'prestart');
execSync('npm run build', { cwd: join(dirname(fileURLToPath(import.meta.url)), '..'), stdio: 'inherit' });
