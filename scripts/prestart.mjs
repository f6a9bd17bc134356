#!/usr/bin/env node
// Runs before `npm start`: installs Debian's ffmpeg when it is missing and you are root, then builds the API and
// the web app when the build is missing or older than its sources. Without ffmpeg the server still starts (it
// says so in its log): uploaded images are then checked by their header only and videos get no poster.
import { ensureBuild } from './build-state.mjs';
import { ensureSystemTool } from './system-tools.mjs';

ensureSystemTool('ffmpeg', 'prestart');
ensureBuild('prestart');
