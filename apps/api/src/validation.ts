import type { z } from 'zod';

/** Parses a request part with its contract; a ZodError becomes a 422 in the error handler. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  return schema.parse(value ?? {});
}
