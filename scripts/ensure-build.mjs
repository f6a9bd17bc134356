#!/usr/bin/env node
// node scripts/ensure-build.mjs <name>: builds when the build is missing or older than its sources (before the
// compiled backup and restore commands run).
import { ensureBuild } from './build-state.mjs';

ensureBuild(process.argv[2] ?? 'build');
