#!/usr/bin/env node
// `npm test`'s runner. Vitest runs a project limited to one worker at a time (the browser specs, `e2e`) after all
// the others, which left a core idle for twelve minutes: here the browser specs run in a Vitest process of their
// own beside the unit and API tests. With arguments, it is plain `vitest run <arguments>`.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const VITEST = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);

/** Runs `vitest run <vitestArgs>`; its lines prefixed with `label` when given. Resolves to its exit code. */
function vitest(vitestArgs, label) {
  const child = spawn(process.execPath, [VITEST, 'run', ...vitestArgs], {
    cwd: root,
    stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  if (label) {
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => console.log(`${label} ${line}`));
    }
  }
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

const codes =
  args.length > 0
    ? [await vitest(args)]
    : await Promise.all([vitest(['--project', '!e2e'], '[unit+api]'), vitest(['--project', 'e2e'], '[e2e]')]);
process.exit(codes.find((code) => code !== 0) ?? 0);
