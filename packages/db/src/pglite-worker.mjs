// The embedded PGlite database, in a worker thread of its own (see pglite-thread.ts for why).
// Plain JavaScript on purpose: a worker starts without the TypeScript loader of its parent under test
// runners. Each message is one call; answers carry the call's id. PGlite runs its statements one at a time.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, protocol } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread');

/** Parsers that leave the values of the given types as PostgreSQL sends them (text). */
function rawTextParsers(typeIds) {
  if (!typeIds) return undefined;
  const identity = (value) => value;
  return Object.fromEntries(typeIds.map((typeId) => [typeId, identity]));
}

/** The fields of a PostgreSQL error that callers read, as a plain object (an Error loses them in transit). */
function describeError(error) {
  const fields = {};
  if (error && typeof error === 'object') {
    for (const key of ['code', 'detail', 'hint', 'severity', 'schema', 'table', 'column', 'constraint']) {
      if (typeof error[key] === 'string') fields[key] = error[key];
    }
  }
  return { message: error instanceof Error ? error.message : String(error), name: error?.name, fields };
}

const database = new PGlite({ dataDir: workerData?.dataDir ?? undefined });

/** Names of the statements prepared so far in this database session. */
const prepared = new Set();

function concatenate(parts) {
  const whole = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}

/**
 * Runs a named prepared statement with text parameters, preparing it on first use, in ONE call into
 * PGlite (Bind, Execute, Sync). PGlite's own `query` makes several calls and copies its table of about 300
 * type parsers to read each answer: for the write path's one small statement per batch that was most of
 * the cost (measured: 470 -> 190 us a call). The answer's rows are not read.
 */
async function executePrepared({ name, text, types, values }) {
  const { serialize } = protocol;
  await database.runExclusive(async () => {
    if (!prepared.has(name)) {
      await database.execProtocol(concatenate([serialize.parse({ name, text, types }), serialize.sync()]));
      prepared.add(name);
    }
    // syncToFs copies an in-memory file system to its store (IndexedDB in a browser); a folder on disk, or
    // memory, has nothing to copy, and skipping the call saves a lock and a promise (about 30 us a call).
    const { messages } = await database.execProtocol(
      concatenate([serialize.bind({ statement: name, values }), serialize.execute(), serialize.sync()]),
      { syncToFs: false },
    );
    // The caller answers "written" (a counted beacon: 2xx) once this returns, so it must be committed: after
    // Sync the session is idle ('I') only if the statement's own implicit transaction committed. Inside a
    // transaction block left open ('T'), it would commit or roll back with that block, later or never: it is
    // rolled back now and refused, so that a request is never answered for events that may be lost.
    const ready = messages.findLast((message) => message.name === 'readyForQuery');
    if (ready?.status !== 'I') {
      // Through the protocol: `exec` would wait for the lock this call holds.
      if (ready?.status === 'T' || ready?.status === 'E') {
        await database.execProtocol(serialize.query('ROLLBACK'), { syncToFs: false });
      }
      throw Object.assign(
        new Error(
          `The statement ${name} ran inside a transaction block left open (status ${ready?.status ?? 'unknown'}): rolled back, not written`,
        ),
        { code: 'XX000' },
      );
    }
  });
  return null;
}

async function run(message) {
  switch (message.op) {
    case 'query':
      return database.query(message.sql, message.params ?? [], {
        rowMode: message.rowMode ?? 'object',
        parsers: rawTextParsers(message.rawTypes),
      });
    case 'exec':
      return database.exec(message.sql);
    case 'executePrepared':
      return executePrepared(message.statement);
    case 'close':
      await database.close();
      return null;
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

/** This thread's id in the operating system (Linux: /proc/thread-self), for the benchmark's CPU per thread. */
function osThreadId() {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop()) || null;
  } catch {
    return null;
  }
}

database.waitReady.then(
  () => port.postMessage({ ready: true, osThreadId: osThreadId() }),
  (error) => port.postMessage({ ready: false, error: describeError(error) }),
);

port.on('message', (message) => {
  run(message).then(
    (result) => port.postMessage({ id: message.id, result }),
    (error) => port.postMessage({ id: message.id, error: describeError(error) }),
  );
});
