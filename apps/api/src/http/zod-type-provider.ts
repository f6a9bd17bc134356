import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import type { z } from 'zod';

/**
 * Zod schemas on Fastify routes (Fastify's type-provider interface, three small parts): the route's
 * `request.body` is typed and parsed by its zod schema, and its answer is checked against its response
 * schema before it is sent. Written here rather than taken from a package: the package's peers (swagger,
 * OpenAPI types) are of no use to us, and its errors would need a second shape in the one error handler.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

/**
 * Parses a request part. A missing body is parsed as `{}`, so that a call whose fields are all optional
 * needs none; a ZodError is answered 422 with the fields at fault by the one error handler.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const parsed = schema.safeParse(data ?? {});
    return parsed.success ? { value: parsed.data } : { error: parsed.error };
  };

/**
 * Serialises an answer once its schema has accepted it (unknown fields are dropped). A mismatch is the
 * server's fault, not the request's: a 500 with the issues in the log, never the 422 of a ZodError.
 */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const checked = schema.safeParse(data);
    if (!checked.success) {
      throw new Error(`The answer does not match its contract: ${JSON.stringify(checked.error.issues).slice(0, 2000)}`);
    }
    return JSON.stringify(checked.data);
  };
