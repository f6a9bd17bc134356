import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The end-to-end tests open the built web app; build it when `npm test`'s pretest has not. */
export default function setup() {
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (!existsSync(`${root}apps/web/dist/index.html`)) execSync('npm run build', { cwd: root, stdio: 'inherit' });
}
