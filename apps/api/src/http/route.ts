import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type { Call, CallBody, CallAccess } from '@helium/contracts';
import type { z } from 'zod';
import { gate, type ActorFor, type SignedInActor } from './gate.ts';
import { zodSerializerCompiler, zodValidatorCompiler, type ZodTypeProvider } from './zod-type-provider.ts';

/** What a call's handler is given: the parsed body, the gated actor, and Fastify's request and reply. */
export interface CallInput<C extends Call> {
  body: CallBody<C>;
  /** The parsed query parameters of a call that declares them. */
  query: QueryOf<C>;
  actor: ActorFor<C['access']>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** The parsed query parameters of a call that declares a query schema; undefined for the others. */
type QueryOf<C extends Call> = [Exclude<C['query'], undefined>] extends [never]
  ? undefined
  : Exclude<C['query'], undefined> extends z.ZodType
    ? z.output<Exclude<C['query'], undefined>>
    : undefined;

/**
 * A call's answer, checked against its response schema before it is sent. A handler that answers
 * something else (the upload's refusals with their own status code) sends it itself and returns the reply.
 */
export type CallHandler<C extends Call> = (input: CallInput<C>) => Promise<z.input<C['response']> | FastifyReply>;

export interface RouteOptions {
  /** A smaller body limit than the app's 1 MB. */
  bodyLimit?: number;
}

/**
 * Registers the route of a call from its contract, the one way a call is added to the API: its path and
 * method, its body and response schemas on the route, and the gate of its access (so no route forgets one).
 */
export function route<C extends Call>(
  app: FastifyInstance,
  call: C,
  handler: CallHandler<C>,
  options: RouteOptions = {},
) {
  const access: CallAccess = call.access;
  app.withTypeProvider<ZodTypeProvider>().route({
    method: call.method,
    url: call.path,
    ...options,
    config: { call: call.path, signedBy: call.signedBy, token: call.token },
    schema: {
      ...(call.request ? { body: call.request } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      response: { 200: call.response },
    },
    // The compilers are set per route: the serving routes keep Fastify's own JSON-schema serializer.
    validatorCompiler: zodValidatorCompiler as FastifySchemaCompiler<unknown>,
    serializerCompiler: zodSerializerCompiler as FastifySerializerCompiler<unknown>,
    preValidation: async (request) => {
      request.actor = await gate(request, access, { refusedWhileActing: call.refusedWhileActing === true });
    },
    handler: async (request, reply) =>
      handler({
        body: (call.request ? request.body : undefined) as CallBody<C>,
        query: (call.query ? request.query : undefined) as QueryOf<C>,
        actor: request.actor as ActorFor<C['access']>,
        request,
        reply,
      }),
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the gate of the call: null for a public call. */
    actor: SignedInActor | null;
  }
}

/**
 * Refuses at start any JSON call under /api that was not registered from a contract (a POST added with
 * `app.post`), so every call keeps one shape: contract, gate, schemas; and any route under /api registered
 * outside the scope where the anti-forgery check and the session lookup run as hooks (app.ts), so that no
 * call can be reached without them.
 */
export function requireContracts(app: FastifyInstance) {
  app.addHook('onRoute', function checkRoute(this: FastifyInstance, options) {
    const methods = Array.isArray(options.method) ? options.method : [options.method];
    const fromContract = (options.config as { call?: string } | undefined)?.call === options.url;
    if (options.url.startsWith('/api/') && methods.includes('POST') && !fromContract) {
      throw new Error(`POST ${options.url} has no contract: register it with route() from packages/contracts`);
    }
    // `this` is the instance the route is registered on: the API scope has the two plugins' decorators.
    const inApiScope = this.hasDecorator('issueXsrfCookie') && this.hasRequestDecorator('session');
    if (options.url.startsWith('/api/') && !inApiScope) {
      throw new Error(`${options.url} is outside the API scope: register its feature with the API calls in app.ts`);
    }
  });
}
