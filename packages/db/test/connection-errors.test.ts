import { describe, expect, it } from 'vitest';
import {
  isDatabaseUnreachable,
  mayHaveCommitted,
  NotWrittenError,
  refusedByDatabase,
} from '../src/connection-errors.ts';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('what a database error means for what was asked', () => {
  it('a statement refused (a constraint, bad input, a lock timeout): refused, nothing written', () => {
    for (const code of ['23514', '23505', '22021', '55P03', '40001']) {
      expect(refusedByDatabase(withCode(code)), code).toBe(true);
      expect(isDatabaseUnreachable(withCode(code)), code).toBe(false);
    }
  });

  it('the connection refused, cut or ended by the server: unreachable, and never taken for a refusal', () => {
    const unreachable = [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET'),
      withCode('08006', 'connection failure'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('53300', 'sorry, too many clients already'),
      withCode('55000', 'database "helium" is not currently accepting connections'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
    ];
    for (const error of unreachable) {
      expect(isDatabaseUnreachable(error), error.message).toBe(true);
      expect(refusedByDatabase(error), error.message).toBe(false);
    }
  });

  it("looks through drizzle's wrapper (`Failed query: ...`) at the driver's error", () => {
    const wrapped = (cause: Error) => new Error('Failed query: select 1\nparams: ', { cause });
    expect(isDatabaseUnreachable(wrapped(withCode('ECONNREFUSED')))).toBe(true);
    expect(refusedByDatabase(wrapped(withCode('ECONNREFUSED')))).toBe(false);
    expect(isDatabaseUnreachable(wrapped(withCode('23505')))).toBe(false);
    expect(refusedByDatabase(wrapped(withCode('23505')))).toBe(true);
  });

  it('anything else (a bug, a 55000 about something else): neither', () => {
    expect(isDatabaseUnreachable(new TypeError('x is undefined'))).toBe(false);
    expect(refusedByDatabase(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnreachable(withCode('55000', 'cannot refresh materialized view concurrently'))).toBe(false);
    expect(refusedByDatabase(withCode('55000', 'cannot refresh materialized view concurrently'))).toBe(true);
    expect(isDatabaseUnreachable('ECONNREFUSED')).toBe(false);
  });

  it('a write may have committed unless the database refused it or the connection was never made', () => {
    for (const error of [withCode('23514'), withCode('ECONNREFUSED'), withCode('57P03'), withCode('53300')]) {
      expect(mayHaveCommitted(error), error.message).toBe(false);
    }
    const cut = [
      new Error('Connection terminated unexpectedly'),
      withCode('ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('08006'),
      new Error('The database thread stopped'),
    ];
    for (const error of cut) expect(mayHaveCommitted(error), error.message).toBe(true);
    // Looked up afterwards and found not written: given back, still a database away.
    const notWritten = new NotWrittenError(withCode('ECONNRESET'));
    expect(mayHaveCommitted(notWritten)).toBe(false);
    expect(isDatabaseUnreachable(notWritten)).toBe(true);
  });
});
