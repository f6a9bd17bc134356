import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { whyBuildIsStaleAt } from '../scripts/build-state.mjs';
import { startProduct } from './support/product.ts';
import { SHARED_SESSIONS, signInByApi, type SharedProduct } from './support/sessions.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR the product has migrated and seeded, then stopped: each spec's product starts from a copy. */
    seededDataDir: string;
  }
}

/**
 * The end-to-end tests open the built web app, and some start the compiled server through `npm start`: build them
 * when `npm test`'s pretest has not, or when a source changed since. A product started once migrates and seeds a
 * DATA_DIR; the specs' products start from copies of it rather than seeding again. One more, on another copy, is
 * shared by the specs that only read, with its users signed in once (support/sessions.ts).
 */
export default async function setup(project: TestProject) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // Vitest sets NODE_ENV=test, with which Vite would bundle React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  if (whyBuildIsStaleAt(root)) execSync('npm run build', { cwd: root, stdio: 'inherit', env });
  const seededDataDir = mkdtempSync(join(tmpdir(), 'helium-e2e-seeded-'));
  const seeding = await startProduct({}, { dataDir: seededDataDir });
  await seeding.stop({ keepData: true });
  project.provide('seededDataDir', seededDataDir);

  const sharedDataDir = mkdtempSync(join(tmpdir(), 'helium-e2e-shared-'));
  cpSync(seededDataDir, sharedDataDir, { recursive: true });
  const shared = await startProduct({}, { dataDir: sharedDataDir });
  try {
    const sessions = {} as SharedProduct['sessions'];
    for (const email of SHARED_SESSIONS) sessions[email] = await signInByApi(shared.url, shared.smtp, email);
    project.provide('sharedProduct', { url: shared.url, sessions });
  } catch (error) {
    await shared.stop();
    throw error;
  }
  return async () => {
    await shared.stop();
    rmSync(seededDataDir, { recursive: true, force: true });
  };
}
