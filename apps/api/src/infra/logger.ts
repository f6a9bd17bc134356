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
  const options = { level, serializers: { req: loggedRequest } };
  if (!output.isTTY) return output === process.stdout ? pino(options) : pino(options, output);
  const { prettyFactory } = await import('pino-pretty');
  const prettify = prettyFactory({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'hostname' });
  return pino(options, { write: (line: string) => output.write(prettify(line)) });
}

/** Paths whose last part is a secret: a one-time sign-in link, a report's unsubscribe link. */
const SECRET_IN_PATH = /^(\/(?:signin-as|unsubscribe)\/)[^?#]+/;

/** A request as its log lines show it (Fastify's fields, this one's serializer replaces its own), secrets hidden. */
function loggedRequest(request: {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: request.url.replace(SECRET_IN_PATH, '$1[hidden]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
