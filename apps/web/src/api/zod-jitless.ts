/**
 * Loaded by index.html before the app, so before any contract is built: the contracts are zod schemas, and
 * zod, on building its first object schema, probes whether it may compile code with `new Function`. Under the
 * server's Content-Security-Policy (no 'unsafe-eval': apps/api/src/http/web-app.ts) the browser refuses
 * the probe and reports it as a violation. Jitless, zod never tries: it parses the same, without generated code.
 */
import { config } from 'zod';

config({ jitless: true });
