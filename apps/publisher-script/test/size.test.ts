import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

/** The size budget of the script every publisher page loads (plausible's habit: smallness first). */
const BUDGET_GZIPPED_BYTES = 3 * 1024;

describe('publisher script', () => {
  it(`stays within ${BUDGET_GZIPPED_BYTES} bytes gzipped, as one IIFE without imports`, async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/helium.ts', import.meta.url))],
      bundle: true,
      minify: true,
      format: 'iife',
      target: ['es2019'],
      write: false,
    });
    const code = result.outputFiles[0]!.text;
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(BUDGET_GZIPPED_BYTES);
    expect(code).not.toMatch(/\bimport\b|\brequire\(/);
    expect(code).not.toMatch(/document\.cookie|localStorage/);
  });
});
