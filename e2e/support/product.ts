import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { startSmtpCatcher } from '../../apps/api/test/smtp-catcher.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STARTUP_LIMIT_MS = 180_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * A DATA_DIR for a new product: a copy of the one the global setup seeded (global-setup.ts) when it has run and
 * the product keeps its data there (no DATABASE_URL), else an empty one the product seeds at its start.
 */
function newDataDir(env: Record<string, string>): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'helium-e2e-'));
  const seeded = inject('seededDataDir');
  if (seeded && !env.DATABASE_URL) cpSync(seeded, dataDir, { recursive: true });
  return dataDir;
}

/**
 * Starts the product the way `npm start` does (its compiled entry point), on a seeded copy of a DATA_DIR (newDataDir) with real SMTP to
 * a local catcher, and waits until /healthz answers.
 */
export async function startProduct(
  env: Record<string, string> = {},
  options: {
    dataDir?: string;
    /**
     * Through `npm start` itself (its start script; `--ignore-scripts` skips only prestart's build, which the
     * tests' global setup has done), so that signals go to npm's process as a supervisor sends them.
     */
    viaNpm?: boolean;
  } = {},
) {
  const smtp = await startSmtpCatcher();
  const dataDir = options.dataDir ?? newDataDir(env);
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const output: string[] = [];
  const [command, args] = options.viaNpm
    ? ['npm', ['start', '--ignore-scripts', '--silent']]
    : // The compiled server `npm start` runs (the global setup builds it when a source is newer).
      [process.execPath, ['apps/api/dist/main.js']];
  const child: ChildProcess = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_URL: url,
      SMTP_URL: smtp.url,
      SIGNIN_LIMIT_PER_EMAIL: '1000',
      SIGNIN_LIMIT_PER_IP: '1000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));

  // Seeding an empty DATA_DIR (the global setup's) takes tens of seconds when other test runs load the machine.
  const deadline = Date.now() + STARTUP_LIMIT_MS;
  for (;;) {
    if (child.exitCode !== null) {
      await smtp.close();
      throw new Error(`The product exited early:\n${output.join('')}`);
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(`The product did not start in ${STARTUP_LIMIT_MS / 1000} s:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    /** The process started: the server's, or npm's with `viaNpm`. */
    pid: child.pid!,
    /** Resolves when that process has exited. */
    exited: new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve()))),
    smtp,
    dataDir,
    output,
    /** Kills the process at once (SIGKILL), leaving DATA_DIR as it is, to check what survives a crash. */
    async kill() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      await smtp.close();
    },
    /** Stops it as a supervisor would (SIGTERM); DATA_DIR is removed unless `keepData`. */
    async stop(options: { keepData?: boolean } = {}) {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await smtp.close();
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type Product = Awaited<ReturnType<typeof startProduct>>;
