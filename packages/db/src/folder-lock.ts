import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who holds a lock: enough to tell whether that process still runs, even once its id was reused. */
interface Holder {
  pid: number;
  host: string;
  /** Linux: the boot and the process's start time, which tell a reused process id apart. */
  started: string | null;
  since: string;
}

/** The database folder is open in another running process. */
export class FolderInUseError extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: Holder,
  ) {
    super(
      `The embedded database is already open in process ${holder.pid} on ${holder.host} (since ${holder.since}). ` +
        `Two servers on one DATA_DIR would both write its files and corrupt it: stop the other one first. ` +
        `If no such process runs, delete ${lockPath}.`,
    );
    this.name = 'FolderInUseError';
  }
}

/** When the process started, as Linux tells it (`/proc`), or null elsewhere. */
function startOf(pid: number): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces: the 22nd is starttime.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return `${boot}:${fields[19]}`;
  } catch {
    return null;
  }
}

function isRunning(holder: Holder): boolean {
  if (holder.host !== hostname()) return true; // cannot be checked from here: assume it runs
  if (holder.pid === process.pid) return false; // this process is only now opening it
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A live process with that id: the same one only if it started when the holder did.
  const started = startOf(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

function read(lockPath: string): { text: string; holder: Holder | null } | null {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Holder;
    return { text, holder: Number.isInteger(holder.pid) ? holder : null };
  } catch {
    return { text, holder: null };
  }
}

/** Locks held by this process, so that it cannot open one folder twice either. */
const heldHere = new Set<string>();

/**
 * Takes the lock file `lockPath` for this process, or throws FolderInUseError when a running process holds
 * it. PGlite does not lock its folder, and two processes writing one database corrupt it. A lock left by
 * a process that no longer runs (killed with SIGKILL, a machine restart, a container's reused process id)
 * is taken over. Returns the function that releases it.
 */
export function lockFolder(lockPath: string): () => void {
  if (heldHere.has(lockPath)) {
    throw new FolderInUseError(lockPath, read(lockPath)?.holder ?? ownHolder());
  }
  const mine = JSON.stringify(ownHolder());
  // Written aside, then linked into place: the lock file never exists without its content.
  const draft = `${lockPath}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, mine);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, lockPath);
        heldHere.add(lockPath);
        return () => release(lockPath, mine);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const current = read(lockPath);
      if (!current) continue; // released meanwhile
      if (current.holder && isRunning(current.holder)) throw new FolderInUseError(lockPath, current.holder);
      // Left by a process that is gone: removed only if nobody replaced it since it was read.
      if (read(lockPath)?.text === current.text) removeIfPresent(lockPath);
    }
    const current = read(lockPath);
    throw new FolderInUseError(lockPath, current?.holder ?? ownHolder());
  } finally {
    removeIfPresent(draft);
  }
}

function removeIfPresent(path: string) {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function ownHolder(): Holder {
  return { pid: process.pid, host: hostname(), started: startOf(process.pid), since: new Date().toISOString() };
}

function release(lockPath: string, mine: string) {
  if (!heldHere.delete(lockPath)) return;
  try {
    if (readFileSync(lockPath, 'utf8') === mine) removeIfPresent(lockPath);
  } catch {
    // already gone
  }
}
