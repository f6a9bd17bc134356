import { mkdtempSync, rmSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { whyBuildIsStaleAt } from '../scripts/build-state.mjs';
import { startProduct } from './support/product.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR the product has migrated and seeded, then stopped: each spec's product starts from a copy. */
    seededDataDir: string;
  }
}

/**
 * The end-to-end tests open the built web app, and some start the compiled server through `npm start`: build them
 * when `npm test`'s pretest has not, or when a source changed since. A product started once migrates and seeds a
 * DATA_DIR; the specs' products start from copies of it rather than seeding again.
 */
export default async function setup(project: TestProject) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // Vitest sets NODE_ENV=test, with which Vite would bundle React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  if (whyBuildIsStaleAt(root)) execSync('npm run build', { cwd: root, stdio: 'inherit', env });
  const seededDataDir = mkdtempSync(join(tmpdir(), 'helium-e2e-seeded-'));
  const product = await startProduct({}, { dataDir: seededDataDir });
  await product.stop({ keepData: true });
  project.provide('seededDataDir', seededDataDir);
  return () => rmSync(seededDataDir, { recursive: true, force: true });
}
