import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bundlePublisherScript } from '../bundle.mjs';
import { contentVersion } from '../content-version.mjs';

/**
 * The size budget of the script every publisher page loads (plausible's habit: smallness first): 2 KB gzipped
 * (issue 33). What each part costs is in docs/performance.md ("The publisher script's size"). The corner box and
 * the history wrapper come as a module only where needed, within a budget of their own.
 */
const SCRIPT_BUDGET_GZIPPED = 2_048;
const EXTRAS_BUDGET_GZIPPED = 640;

const gzipped = (code: string) => gzipSync(code, { level: 9 }).length;

describe('publisher script', () => {
  it(`stays within ${SCRIPT_BUDGET_GZIPPED} bytes gzipped, as one IIFE that imports only its extras`, async () => {
    // Built as build.mjs builds it (the file the API serves).
    const { script, extras } = await bundlePublisherScript();
    expect(gzipped(script)).toBeLessThanOrEqual(SCRIPT_BUDGET_GZIPPED);
    expect(script.startsWith('(()=>{')).toBe(true);
    // Its one import is the extras' current version, on the script's own origin.
    expect(script.match(/\bimport\b/g)).toHaveLength(1);
    expect(script).toContain(`"/serve/extras.js?v=${contentVersion(extras)}"`);
    expect(script).not.toMatch(/\brequire\(|document\.cookie|localStorage/);
  });

  it(`loads its extras (corner box, history wrapper) within ${EXTRAS_BUDGET_GZIPPED} bytes gzipped`, async () => {
    const { extras } = await bundlePublisherScript();
    expect(gzipped(extras)).toBeLessThanOrEqual(EXTRAS_BUDGET_GZIPPED);
    expect(extras).toMatch(/export\s*\{/);
    expect(extras).not.toMatch(/\bimport\b|document\.cookie|localStorage/);
  });
});
