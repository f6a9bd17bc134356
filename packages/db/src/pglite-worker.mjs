// The embedded PGlite database, in a worker thread of its own (see pglite-thread.ts for why).
// Plain JavaScript on purpose: a worker starts without the TypeScript loader of its parent under test
// runners. Each message is one call; answers carry the call's id. PGlite runs its statements one at a time.
import { Blob } from 'node:buffer';
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

// `image`: a dump of a database's files (dumpDataDir) to start from instead of an empty one (tests' template).
const image = workerData?.image;
const database = new PGlite({
  dataDir: workerData?.dataDir ?? undefined,
  loadDataDir: image ? new Blob([image]) : undefined,
});

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
 * PGlite 0.3 drops the rest of one call's input when a message ends exactly where its 8 KB receive buffer
 * is emptied (measured: an input of 8,192·k + 5 bytes lost its Sync, leaving the statement's transaction
 * open; one of 8,192·k + 15 bytes lost Execute and Sync, so the statement never ran). An input that fits in
 * the buffer is read whole; a longer one is sent in calls of at most that size, one message or more each.
 */
const RECEIVE_BUFFER_BYTES = 8192;
const bytesPerCall = workerData?.bytesPerCall ?? RECEIVE_BUFFER_BYTES;
const { serialize } = protocol;

/**
 * A statement refused as not written, as an error with a SQLSTATE code (XX000, internal error), so that the
 * recorder treats it as a refusal and writes the batch's requests again one by one.
 */
function notWritten(message) {
  return Object.assign(new Error(message), { code: 'XX000' });
}

/**
 * Sends protocol messages ending with a Sync, in as few calls as the receive buffer allows; answers the
 * messages received. A refused message throws; when that happens before the last call, the Sync is sent
 * alone, so that the session does not stay waiting for it (PostgreSQL skips everything up to a Sync).
 */
async function sendMessages(parts) {
  const calls = [];
  for (const part of parts) {
    const last = calls.at(-1);
    if (last && last.bytes + part.length <= bytesPerCall) {
      last.parts.push(part);
      last.bytes += part.length;
    } else {
      calls.push({ parts: [part], bytes: part.length });
    }
  }
  const answers = [];
  for (const [index, call] of calls.entries()) {
    try {
      // syncToFs copies an in-memory file system to its store (IndexedDB in a browser); a folder on disk,
      // or memory, has nothing to copy, and skipping the call saves a lock and a promise (about 30 us).
      const { messages } = await database.execProtocol(concatenate(call.parts), { syncToFs: false });
      answers.push(...messages);
    } catch (error) {
      if (index < calls.length - 1) await database.execProtocol(serialize.sync(), { syncToFs: false });
      throw error;
    }
  }
  return answers;
}

/**
 * Runs a named prepared statement with text parameters, preparing it on first use, in as few calls into
 * PGlite as its receive buffer allows (one for a small batch: Bind, Execute, Sync). PGlite's own `query`
 * makes several calls and copies its table of about 300 type parsers to read each answer: for the write
 * path's one small statement per batch that was most of the cost (measured: 470 -> 190 us a call). Answers
 * the first column of the first row as text (null when there is none): no type parser is involved.
 */
async function executePrepared({ name, text, types, values }) {
  return database.runExclusive(async () => {
    if (!prepared.has(name)) {
      await sendMessages([serialize.parse({ name, text, types }), serialize.sync()]);
      prepared.add(name);
    }
    const answers = await sendMessages([
      serialize.bind({ statement: name, values }),
      serialize.execute(),
      serialize.sync(),
    ]);
    // The caller answers "written" (a counted beacon: 2xx) once this returns, so it must be committed: after
    // Sync the session is idle ('I') only if the statement's own implicit transaction committed. Inside a
    // transaction block left open ('T'), it would commit or roll back with that block, later or never: it is
    // rolled back now and refused, so that a request is never answered for events that may be lost.
    let ready = answers.findLast((message) => message.name === 'readyForQuery');
    if (!ready) {
      // No answer to the Sync: PGlite did not read it (see RECEIVE_BUFFER_BYTES). Sending it again ends the
      // statement's transaction, committed if the statement ran, so that its outcome is known.
      const synced = await sendMessages([serialize.sync()]);
      ready = synced.findLast((message) => message.name === 'readyForQuery');
      if (ready?.status === 'I' && !answers.some((message) => message.name === 'commandComplete')) {
        throw notWritten(`The statement ${name} was not run by the database: not written`);
      }
    }
    if (ready?.status !== 'I') {
      // Through the protocol: `exec` would wait for the lock this call holds.
      if (ready?.status === 'T' || ready?.status === 'E') {
        await database.execProtocol(serialize.query('ROLLBACK'), { syncToFs: false });
      }
      throw notWritten(
        `The statement ${name} ran inside a transaction block left open (status ${ready?.status ?? 'unknown'}): rolled back, not written`,
      );
    }
    return answers.find((message) => message.name === 'dataRow')?.fields?.[0] ?? null;
  });
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
    case 'dump':
      return new Uint8Array(await (await database.dumpDataDir('none')).arrayBuffer());
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

database.waitReady
  // PGlite starts its session with client_min_messages at debug3, so every statement also sent a DEBUG
  // notice ("bind <unnamed> to ...") that PGlite then parsed: 40% of a small statement's cost (measured:
  // 122 -> 75 us). PostgreSQL's default level keeps the notices a client is meant to see.
  .then(() => database.exec('SET client_min_messages TO notice'))
  .then(
    () => port.postMessage({ ready: true, osThreadId: osThreadId() }),
    (error) => port.postMessage({ ready: false, error: describeError(error) }),
  );

port.on('message', (message) => {
  run(message).then(
    (result) => port.postMessage({ id: message.id, result }),
    (error) => port.postMessage({ id: message.id, error: describeError(error) }),
  );
});
