import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startProduct } from './support/product.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR the product has migrated and seeded, then stopped: each spec's product starts from a copy. */
    seededDataDir: string;
  }
}

/**
 * The end-to-end tests open the built web app: built here when `npm test`'s pretest has not. A product started
 * once migrates and seeds a DATA_DIR; the specs' products start from copies of it rather than seeding again.
 */
export default async function setup(project: TestProject) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(`${root}apps/web/dist/index.html`)) execSync('npm run build', { cwd: root, stdio: 'inherit' });
  const seededDataDir = mkdtempSync(join(tmpdir(), 'helium-e2e-seeded-'));
  const product = await startProduct({}, { dataDir: seededDataDir });
  await product.stop({ keepData: true });
  project.provide('seededDataDir', seededDataDir);
  return () => rmSync(seededDataDir, { recursive: true, force: true });
}
