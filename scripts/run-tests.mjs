#!/usr/bin/env node
// `npm test`'s runner. The browser specs (project `e2e`) run one file at a time, and use under one core of the two:
// run alone after the others, they left a core idle for twelve minutes. Here two lanes share the machine: one runs
// the browser specs from the start; the other runs the unit and API tests, then takes its share of the browser
// specs. The browser specs are cut in E2E_PARTS parts (Vitest's --shard), each lane taking the next part left when
// it is free. With arguments, it is plain `vitest run <arguments>`.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const VITEST = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);
/**
 * More parts balance the lanes better; each costs its own start (a seeded product and a shared one, about 20 s).
 * Four: the unit and API tests take about as long as two parts beside the first lane, and the lanes end within a
 * minute of each other (measured: 14.2 min in all instead of 14.9; two browser specs at once run 1.3-1.5 times slower
 * each, so the second lane gains less than it seems).
 */
const E2E_PARTS = 4;

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

/** The browser specs' parts not yet taken, first to last. */
const partsLeft = Array.from({ length: E2E_PARTS }, (_, index) => index + 1);

/** Runs the parts left, one after another, until none is; resolves to their exit codes. */
async function browserSpecs() {
  const codes = [];
  for (let part = partsLeft.shift(); part !== undefined; part = partsLeft.shift()) {
    codes.push(await vitest(['--project', 'e2e', `--shard=${part}/${E2E_PARTS}`], `[e2e ${part}/${E2E_PARTS}]`));
  }
  return codes;
}

const codes =
  args.length > 0
    ? [await vitest(args)]
    : (
        await Promise.all([
          browserSpecs(),
          vitest(['--project', '!e2e'], '[unit+api]').then(async (code) => [code, ...(await browserSpecs())]),
        ])
      ).flat();
process.exit(codes.find((code) => code !== 0) ?? 0);
