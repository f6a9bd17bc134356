import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { API_CALLS } from '../src/index.ts';

type JsonSchema = { [key: string]: unknown };

/** A string is bounded when the schema caps its length, or allows only listed values or a fixed pattern's length. */
function isBoundedString(schema: JsonSchema): boolean {
  if (typeof schema.maxLength === 'number') return true;
  if (Array.isArray(schema.enum) || 'const' in schema) return true;
  // A pattern anchored at both ends with no open repetition (`^\d{4}-\d{2}-\d{2}$`) fixes the length.
  const pattern = schema.pattern;
  return typeof pattern === 'string' && /^\^.*\$$/.test(pattern) && !/[*+]|\{\d+,\}/.test(pattern);
}

/** The paths of every string in a JSON Schema that may be any length. */
function unboundedStrings(schema: unknown, path: string, found: string[]): string[] {
  if (!schema || typeof schema !== 'object') return found;
  const node = schema as JsonSchema;
  if (node.type === 'string' && !isBoundedString(node)) found.push(path || '(body)');
  for (const [key, child] of Object.entries(node)) {
    if (key === 'properties' && child && typeof child === 'object') {
      for (const [name, property] of Object.entries(child)) unboundedStrings(property, `${path}.${name}`, found);
    } else if (key === 'items' || key === 'additionalProperties') {
      unboundedStrings(child, `${path}[]`, found);
    } else if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(child)) {
      for (const option of child) unboundedStrings(option, path, found);
    }
  }
  return found;
}

describe('every text a call accepts has a maximum length (issue 36, point 8)', () => {
  const calls = API_CALLS.filter((call) => call.request || call.query).map((call) => [call.path, call] as const);

  it('walks the calls that take a body or a query', () => {
    expect(calls.length).toBeGreaterThan(40);
  });

  it.each(calls)('%s', (_name, call) => {
    const found: string[] = [];
    for (const schema of [call.request, call.query]) {
      if (schema) unboundedStrings(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), '', found);
    }
    expect(found).toEqual([]);
  });

  it('finds an unbounded string, so that the walk above can fail', () => {
    const schema = z.object({ a: z.object({ b: z.array(z.string()) }), c: z.string().max(3) });
    expect(unboundedStrings(z.toJSONSchema(schema), '', [])).toEqual(['.a.b[]']);
  });
});
