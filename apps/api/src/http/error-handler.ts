import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { issueOf, type TErrorResponse } from '@helium/contracts';
import { isDatabaseUnreachable } from '@helium/db';
import { OutageLog } from '../infra/outage-log.ts';
import { HttpError } from './errors.ts';

/**
 * One error handler for the whole API: a refused request gets a clear 4xx with a stable status key and,
 * for bad input, the fields at fault; the database out of reach a 503 that says so (a retry may succeed); any other
 * server fault a 500 whose details stay in the log.
 */
export default fp(async function errors(app: FastifyInstance) {
  // While the database is away every request that needs it fails: said once a minute, not once per request.
  const databaseAway = new OutageLog();
  app.setErrorHandler((error: FastifyError | HttpError | ZodError, request, reply) => {
    if (error instanceof HttpError) {
      const body: TErrorResponse = { status: error.status, message: error.message };
      if (error.issues) body.issues = error.issues;
      return reply.code(error.statusCode).send(body);
    }
    if (error instanceof ZodError) {
      const body: TErrorResponse = {
        status: 'invalidRequest',
        message: 'The request is not valid.',
        // Each names its field, its reason and the limit it broke (never the value sent).
        issues: error.issues.map(issueOf),
      };
      return reply.code(422).send(body);
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 400 && statusCode < 500) {
      const body: TErrorResponse = { status: error.code ?? 'badRequest', message: error.message };
      return reply.code(statusCode).send(body);
    }
    if (isDatabaseUnreachable(error)) {
      if (databaseAway.shouldLog(error, 'requests')) {
        request.log.warn({ err: error }, 'requests fail: the database cannot be reached (said once a minute)');
      }
      const body: TErrorResponse = {
        status: 'databaseUnreachable',
        message: 'The database cannot be reached just now. Try again in a moment.',
      };
      return reply.code(503).header('retry-after', '5').send(body);
    }
    request.log.error({ err: error }, 'request failed');
    const body: TErrorResponse = { status: 'serverError', message: 'Something went wrong on our side.' };
    return reply.code(500).send(body);
  });
});
