import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { buildOptions } from '../build-options.mjs';

/**
 * The size budget of the script every publisher page loads (plausible's habit: smallness first). The target is
 * 2,048 bytes (issue 33); every behaviour of docs/server-behaviour.md together takes 2,337, what each part costs
 * is in docs/performance.md ("The publisher script's size").
 */
const BUDGET_GZIPPED_BYTES = 2_340;

describe('publisher script', () => {
  it(`stays within ${BUDGET_GZIPPED_BYTES} bytes gzipped, as one IIFE without imports`, async () => {
    // Built as build.mjs builds it (the file the API serves).
    const result = await build({ ...buildOptions, write: false });
    const code = result.outputFiles[0]!.text;
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(BUDGET_GZIPPED_BYTES);
    expect(code).not.toMatch(/\bimport\b|\brequire\(/);
    expect(code).not.toMatch(/document\.cookie|localStorage/);
  });
});
