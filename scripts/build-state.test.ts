import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILD_OUTPUTS, newestFile, whyBuildIsStale, whyBuildIsStaleAt } from './build-state.mjs';

describe('whyBuildIsStale', () => {
  const built = (mtimeMs: number | null) => [
    { path: 'apps/api/dist/main.js', mtimeMs: 2_000 },
    { path: 'apps/web/dist/index.html', mtimeMs },
  ];

  it('asks for a build when an output is missing', () => {
    expect(whyBuildIsStale(built(null), { path: 'a.ts', mtimeMs: 1 })).toBe('apps/web/dist/index.html is missing');
  });

  it('asks for a build when a source is newer than the oldest output', () => {
    expect(whyBuildIsStale(built(1_000), { path: 'b.ts', mtimeMs: 1_500 })).toBe('b.ts changed after the last build');
  });

  it('keeps a build newer than every source', () => {
    expect(whyBuildIsStale(built(3_000), { path: 'b.ts', mtimeMs: 1_999 })).toBeNull();
    expect(whyBuildIsStale(built(3_000), null)).toBeNull();
  });
});

describe('whyBuildIsStaleAt', () => {
  let root = '';
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const write = (path: string, seconds: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  };

  it('reads the tree: a newer source makes the build stale, a newer test does not', () => {
    root = mkdtempSync(join(tmpdir(), 'build-state-'));
    expect(whyBuildIsStaleAt(root)).toBe(`${BUILD_OUTPUTS[0]} is missing`);
    for (const output of BUILD_OUTPUTS) write(output, 2_000);
    write('packages/db/src/client.ts', 1_000);
    write('apps/api/src/app.test.ts', 3_000);
    expect(newestFile(root, ['packages/db/src', 'apps/api/src'])?.mtimeMs).toBe(1_000_000);
    expect(whyBuildIsStaleAt(root)).toBeNull();
    write('apps/api/src/features/x/routes.ts', 3_000);
    expect(whyBuildIsStaleAt(root)).toBe('apps/api/src/features/x/routes.ts changed after the last build');
  });
});
