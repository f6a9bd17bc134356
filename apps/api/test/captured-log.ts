import { Writable } from 'node:stream';
import pino, { type Level } from 'pino';

/** A line the server logged, parsed. */
export type LoggedLine = { level: number; msg: string; [field: string]: unknown };

/**
 * A pino logger at `level` whose lines the test reads: `lines` parsed, and `text()` everything as written, one JSON
 * line each (for what must never appear in a log).
 */
export function capturedLog(level: Level = 'info') {
  const lines: LoggedLine[] = [];
  const texts: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n')) {
        if (!text) continue;
        texts.push(text);
        lines.push(JSON.parse(text) as LoggedLine);
      }
      done();
    },
  });
  return { logger: pino({ level }, sink), lines, text: () => texts.join('\n') };
}
