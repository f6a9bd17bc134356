import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FolderInUseError, lockFolder } from '../src/folder-lock.ts';
import { openDatabase } from '../src/client.ts';

const folder = mkdtempSync(join(tmpdir(), 'helium-lock-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

let lockNumber = 0;
const newLockPath = () => join(folder, `db${++lockNumber}.lock`);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Another process that takes the lock and holds it until killed. */
async function holdInAnotherProcess(lockPath: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'fixtures/hold-lock.ts'), lockPath],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the holder exited (${code})`)));
  });
  return child;
}

describe('lockFolder', () => {
  it('names this process in the lock file, refuses a second taker, and frees it on release', () => {
    const lockPath = newLockPath();
    const release = lockFolder(lockPath);
    const holder = JSON.parse(readFileSync(lockPath, 'utf8'));
    expect(holder).toMatchObject({ pid: process.pid, host: hostname() });
    expect(() => lockFolder(lockPath)).toThrow(FolderInUseError);
    release();
    expect(existsSync(lockPath)).toBe(false);
    lockFolder(lockPath)();
    expect(existsSync(lockPath)).toBe(false);
  });

  it('refuses while another running process holds it, and takes it over once that process was killed', async () => {
    const lockPath = newLockPath();
    const child = await holdInAnotherProcess(lockPath);
    let refused: unknown;
    try {
      lockFolder(lockPath);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(FolderInUseError);
    expect((refused as Error).message).toContain(`process ${child.pid}`);
    expect((refused as Error).message).toContain(lockPath);

    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // The killed process could not remove its lock: it is stale, and taken over.
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).pid).toBe(child.pid);
    const release = lockFolder(lockPath);
    expect(JSON.parse(readFileSync(lockPath, 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('takes over a lock whose process id now belongs to another program (a reused id), not one from another host', () => {
    const reused = newLockPath();
    // The parent process runs, but did not start when this holder says it did.
    writeFileSync(
      reused,
      JSON.stringify({ pid: process.ppid, host: hostname(), started: 'another-boot:1', since: '2026-01-01T00:00:00Z' }),
    );
    lockFolder(reused)();

    const remote = newLockPath();
    writeFileSync(
      remote,
      JSON.stringify({ pid: 1, host: 'another-machine', started: null, since: '2026-01-01T00:00:00Z' }),
    );
    expect(() => lockFolder(remote)).toThrow(/process 1 on another-machine/);
  });

  it('takes over an unreadable lock file', () => {
    const lockPath = newLockPath();
    writeFileSync(lockPath, '');
    lockFolder(lockPath)();
    expect(existsSync(lockPath)).toBe(false);
  });
});

describe('openDatabase on a folder', () => {
  it('refuses a second opening of the same embedded database until the first is closed', async () => {
    const pgliteDir = join(folder, 'db');
    const first = await openDatabase({ pgliteDir });
    await expect(openDatabase({ pgliteDir })).rejects.toThrow(FolderInUseError);
    await first.close();
    const second = await openDatabase({ pgliteDir });
    await second.ping();
    await second.close();
    expect(existsSync(`${pgliteDir}.lock`)).toBe(false);
  }, 60_000);
});
