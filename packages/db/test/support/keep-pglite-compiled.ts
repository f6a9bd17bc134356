// A Vitest setup file of the unit and API tests (vitest.config.ts). Each embedded database a test opens runs PGlite in
// a thread of its own, which compiles PGlite's WebAssembly again; V8 shares the compiled code of the same bytes between
// a process's threads while one compiled copy is alive. Holding one for the life of the worker (a project's test files
// share it: `isolate: false`) spares most of that compiling (measured: 43 -> 35 CPU s on twelve API files on PGlite).
// Should V8 stop sharing it, the tests only get slower.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// WebAssembly is a global of Node that @types/node leaves to the DOM library.
const worker = globalThis as unknown as {
  WebAssembly: { compile(bytes: Uint8Array): Promise<object> };
  heliumPgliteModule?: Promise<object>;
};
worker.heliumPgliteModule ??= worker.WebAssembly.compile(
  readFileSync(join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm')),
);
