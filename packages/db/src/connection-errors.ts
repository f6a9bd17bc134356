/** Errors of Node's sockets that mean the database server could not be reached or the connection was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs that end or refuse the connection rather than the statement: class 08 (connection exception), 57P01-03
 * (the server shutting down, crashed, starting), 53300 (too many connections) and 55000 when the database takes no
 * connections. A statement that fails so may still have committed: it is never written again blindly.
 */
function isConnectionState(code: string, message: string): boolean {
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')
    return true;
  return code === '55000' && message.includes('not currently accepting connections');
}

/** The driver's error: drizzle wraps it (`Failed query: ...`) as its `cause`. */
function driverError(error: unknown): Error | null {
  for (let depth = 0; error instanceof Error && depth < 4; depth++) {
    if ('code' in error || !(error.cause instanceof Error)) return error;
    error = error.cause;
  }
  return null;
}

/** The database could not be reached, or the connection ended under the request: not a refusal of what it asked. */
export function isDatabaseUnreachable(error: unknown): boolean {
  const driver = driverError(error);
  if (!driver) return false;
  const code = (driver as { code?: unknown }).code;
  if (typeof code === 'string') return SOCKET_CODES.has(code) || isConnectionState(code, driver.message);
  // node-postgres's own, without a code.
  return /^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error/.test(
    driver.message,
  );
}

/**
 * The database refused the statement (a constraint, a type, a lock timeout) and wrote none of it: an error with a
 * SQLSTATE that does not concern the connection.
 */
export function refusedByDatabase(error: unknown): boolean {
  const code = (driverError(error) as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !isDatabaseUnreachable(error);
}

/** A connection that was never made: nothing was sent, so nothing can have been written. */
function neverSent(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return /^timeout exceeded when trying to connect/.test(error.message);
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', '57P03', '53300'].includes(code)) {
    return true;
  }
  return code === '55000' && error.message.includes('not currently accepting connections');
}

/**
 * Whether a write that failed may have been committed all the same: neither refused by the database nor stopped
 * before anything was sent (a connection cut while the commit was on its way, the database's thread gone, an error
 * of unknown kind). What it counted must then stay counted, never be counted a second time.
 */
export function mayHaveCommitted(error: unknown): boolean {
  if (error instanceof NotWrittenError) return false;
  const driver = driverError(error);
  return !refusedByDatabase(error) && !(driver && neverSent(driver));
}

/** A write whose connection failed, found by looking afterwards not to have been committed (its `cause`: why). */
export class NotWrittenError extends Error {
  constructor(cause: Error) {
    super(`Not written: ${cause.message}`, { cause });
    this.name = 'NotWrittenError';
  }
}
