import pino, { type Logger } from 'pino';

/** The levels LOG_LEVEL takes (pino's). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Where the log goes: standard output, or a test's stand-in. */
export interface LogOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

/**
 * The server's log: one JSON line per entry for a log collector, or, when standard output is a terminal, coloured
 * lines for a person (pino-pretty, loaded only then). Both are written synchronously, so that the lines before a
 * process.exit (a fatal error, "stopped cleanly") are not lost.
 */
export async function createLogger(level: LogLevel, output: LogOutput = process.stdout): Promise<Logger> {
  if (!output.isTTY) return output === process.stdout ? pino({ level }) : pino({ level }, output);
  const { prettyFactory } = await import('pino-pretty');
  const prettify = prettyFactory({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'hostname' });
  return pino({ level }, { write: (line: string) => output.write(prettify(line)) });
}
