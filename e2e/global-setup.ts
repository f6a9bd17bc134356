import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { whyBuildIsStaleAt } from '../scripts/build-state.mjs';

/**
 * The end-to-end tests open the built web app, and some start the compiled server through `npm start`: build them
 * when `npm test`'s pretest has not, or when a source changed since.
 */
export default function setup() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  // Vitest sets NODE_ENV=test, with which Vite would bundle React's development build.
  const env = { ...process.env, NODE_ENV: 'production' };
  if (whyBuildIsStaleAt(root)) execSync('npm run build', { cwd: root, stdio: 'inherit', env });
}
