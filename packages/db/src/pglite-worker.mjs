// The embedded PGlite database, in a worker thread of its own (see pglite-thread.ts for why).
// Plain JavaScript on purpose: a worker starts without the TypeScript loader of its parent under test
// runners. Each message is one call; answers carry the call's id. PGlite runs its statements one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

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

async function run(message) {
  switch (message.op) {
    case 'query':
      return database.query(message.sql, message.params ?? [], {
        rowMode: message.rowMode ?? 'object',
        parsers: rawTextParsers(message.rawTypes),
      });
    case 'exec':
      return database.exec(message.sql);
    case 'close':
      await database.close();
      return null;
    default:
      throw new Error(`Unknown operation ${message.op}`);
  }
}

database.waitReady.then(
  () => port.postMessage({ ready: true }),
  (error) => port.postMessage({ ready: false, error: describeError(error) }),
);

port.on('message', (message) => {
  run(message).then(
    (result) => port.postMessage({ id: message.id, result }),
    (error) => port.postMessage({ id: message.id, error: describeError(error) }),
  );
});
