#!/usr/bin/env node
// node scripts/with-node.mjs <major> <command> [arguments]
// Runs a command (npm test, npx vitest ...) on another Node.js major version than the machine's, so that CI tests
// every version the README promises (.ci/run). The binary comes from the npm registry, like every other dependency: the package
// node-<platform>-<arch>@<major> holds it in its tarball (bin/node), kept in node_modules/.cache/node-<major>.
// The command and every process it starts (npm, vitest, the product through `node` or `npm start`) run on that
// version: its folder comes first in PATH. Uses only Node's own modules.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [major, command, ...args] = process.argv.slice(2);
if (!major || !/^\d+$/.test(major) || !command) {
  console.error('usage: node scripts/with-node.mjs <major version> <command> [arguments]');
  process.exit(2);
}

const folder = join(root, 'node_modules', '.cache', `node-${major}`);
const node = join(folder, 'bin', 'node');
if (!existsSync(node)) {
  const packageName = `node-${process.platform}-${process.arch}@${major}`;
  console.log(`with-node: fetching ${packageName} from the npm registry`);
  const download = mkdtempSync(join(tmpdir(), 'helium-node-'));
  try {
    const tarball = execFileSync('npm', ['pack', packageName, '--silent', '--pack-destination', download], {
      cwd: download,
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .pop();
    mkdirSync(folder, { recursive: true });
    // The tarball's files sit under package/: bin/node, include/, share/.
    execFileSync('tar', ['-xzf', join(download, tarball), '-C', folder, '--strip-components=1']);
  } finally {
    rmSync(download, { recursive: true, force: true });
  }
}

const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
console.log(`with-node: ${[command, ...args].join(' ')} on Node.js ${version}`);
const result = spawnSync(command, args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${join(folder, 'bin')}:${process.env.PATH ?? ''}` },
});
if (result.error) console.error(`with-node: ${result.error.message}`);
process.exit(result.status ?? 1);
