import type { z } from 'zod';

/** Parses a request part with its contract; a ZodError becomes a 422 in the error handler. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  return schema.parse(value ?? {});
}

/**
 * Checks an answer against its contract before it is sent. A mismatch is the server's fault, not the
 * request's: it becomes a 500 (with the issues in the log), never the 422 a ZodError would give.
 */
export function answerWith<S extends z.ZodType>(schema: S, value: z.input<S>): z.infer<S> {
  const checked = schema.safeParse(value);
  if (!checked.success) {
    throw new Error(`The answer does not match its contract: ${JSON.stringify(checked.error.issues).slice(0, 2000)}`);
  }
  return checked.data;
}
