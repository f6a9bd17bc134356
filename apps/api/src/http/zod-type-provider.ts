import type { FastifySchemaCompiler, FastifyTypeProvider } from 'fastify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { z } from 'zod';

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
 * needs none; a ZodError is answered 422 with the fields at fault by the one error handler. Text holding the
 * NUL character is refused for every call here: PostgreSQL cannot store it, and it is never meant.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    // The input in the issues tells a missing value from a wrong one (issues.ts); it is never sent back.
    const parsed = schema.safeParse(data ?? {}, { reportInput: true });
    if (!parsed.success) return { error: parsed.error };
    const path = nulPath(parsed.data, []);
    if (path) return { error: nulError.safeParse(path).error! };
    return { value: parsed.data };
  };

/** A genuine ZodError (an Error, as Fastify needs) naming the field that holds a NUL character. */
const nulError = z.any().superRefine((path: PropertyKey[], context) => {
  context.addIssue({ code: 'custom', path, message: 'Text cannot contain the NUL character' });
});

/** Where a value holds a string with the NUL character, or null. */
function nulPath(value: unknown, path: PropertyKey[]): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulPath(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = nulPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

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
