import { describe, expect, it } from 'vitest';
import { API_TOKEN_NAME_MAX, ZCreateApiTokenRequestSchema } from '@helium/contracts';
import { tokenNameProblem } from './tokenName.ts';

describe('tokenNameProblem', () => {
  it.each([
    ['Weekly sheet', null],
    ['  padded  ', null],
    ['', 'empty'],
    ['   ', 'empty'],
    ['x'.repeat(API_TOKEN_NAME_MAX), null],
    ['x'.repeat(API_TOKEN_NAME_MAX + 1), 'tooLong'],
    ['two\nlines', 'notOneLine'],
    ['tab\there', 'notOneLine'],
    ['nul\u0000', 'notOneLine'],
  ])('%j: %s', (name, problem) => {
    expect(tokenNameProblem(name)).toBe(problem);
    // The same verdict as the contract the server checks.
    expect(ZCreateApiTokenRequestSchema.safeParse({ name }).success).toBe(problem === null);
  });
});
