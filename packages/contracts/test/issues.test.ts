import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkRequest, issueOf, ISSUE_KEYS, withKey, ZCreateAccountRequestSchema } from '../src/index.ts';

/** The issues of a value under a schema, as the API lists them in a 422. */
const issuesOf = (schema: z.ZodType, value: unknown) => {
  const checked = checkRequest(schema, value);
  return checked.success ? [] : checked.issues;
};

describe('issueOf: a zod issue as the 422 and the screen name it', () => {
  it('names the field dotted, and words each code with its limit', () => {
    const schema = z.object({
      nested: z.object({ price: z.number().positive() }),
      count: z.number().int().min(0).max(10),
      text: z.string().trim().min(1).max(5),
      code: z.string().min(3),
      list: z.array(z.string()).max(1),
      email: z.string().email(),
      choice: z.enum(['a', 'b']),
    });
    const issues = issuesOf(schema, {
      nested: { price: 0 },
      count: -1,
      text: ' 123456 ',
      code: 'ab',
      list: ['x', 'y'],
      email: 'nope',
      choice: 'c',
    });
    expect(issues.map(({ path, key, values }) => ({ path, key, values }))).toEqual([
      { path: 'nested.price', key: 'above', values: { min: 0 } },
      { path: 'count', key: 'atLeast', values: { min: 0 } },
      { path: 'text', key: 'tooLong', values: { max: 5, typed: 6 } },
      { path: 'code', key: 'tooShort', values: { min: 3 } },
      { path: 'list', key: 'tooMany', values: { max: 1 } },
      { path: 'email', key: 'email', values: undefined },
      { path: 'choice', key: 'choice', values: undefined },
    ]);
  });

  it('tells a missing or empty value (required) from a wrong one', () => {
    const schema = z.object({ a: z.number(), b: z.number(), c: z.string().trim().min(1), d: z.number().int() });
    expect(issuesOf(schema, { b: Number.NaN, c: '   ', d: 1.5 }).map((issue) => [issue.path, issue.key])).toEqual([
      ['a', 'required'],
      ['b', 'number'],
      ['c', 'required'],
      ['d', 'wholeNumber'],
    ]);
    expect(issuesOf(schema, { a: null, b: 1, c: 'x', d: 1 })).toEqual([expect.objectContaining({ key: 'required' })]);
  });

  it('carries the key of a refinement, and sends a custom issue without one as invalid', () => {
    const schema = z.object({
      keyed: z.string().refine(() => false, { message: 'No', ...withKey('domain') }),
      withValues: z.number().refine(() => false, { message: 'No', ...withKey('decimals', { decimals: 2 }) }),
      plain: z.string().refine(() => false, 'No'),
    });
    expect(
      issuesOf(schema, { keyed: 'x', withValues: 1, plain: 'x' }).map(({ key, values }) => ({ key, values })),
    ).toEqual([
      { key: 'domain', values: undefined },
      { key: 'decimals', values: { decimals: 2 } },
      { key: 'invalid', values: undefined },
    ]);
  });

  it('never puts the value sent in an issue', () => {
    const secret = 'S'.repeat(300);
    const issues = issuesOf(z.object({ s: z.string().max(10) }), { s: secret });
    expect(JSON.stringify(issues)).not.toContain(secret);
    expect(issueOf(z.string().max(1).safeParse('ab').error!.issues[0]!)).toEqual(
      expect.objectContaining({ path: '', key: 'tooLong' }),
    );
  });

  it('has only known keys', () => {
    const issues = issuesOf(ZCreateAccountRequestSchema, {
      kind: 'advertiser',
      brand: '',
      email: 'x',
      name: 'a\nb',
      locale: 'de',
      campaign: { isCpc: false, price: -1 },
      trialCredits: -500,
    });
    expect(issues.length).toBeGreaterThan(4);
    for (const issue of issues) expect(ISSUE_KEYS).toContain(issue.key);
  });
});
