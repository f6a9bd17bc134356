import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { count, like } from 'drizzle-orm';
import { adDecisions, openDatabase } from '@helium/db';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_BLOG_ID } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const N = 30;

let product: Product | null = null;
let descendants: number[] = [];

afterAll(async () => {
  // Never leave a server behind, whatever the test found.
  for (const pid of descendants) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await product?.kill();
});

/** Every process below `pid`, from /proc (children of children included). */
function descendantsOf(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [child, itsParent] of parentOf) {
      if (itsParent === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('SIGTERM to `npm start` (issue 26, point 8)', () => {
  it('stops the server gracefully: answered pageviews written, a clean-stop line, no process left', async () => {
    product = await startProduct({ LOG_LEVEL: 'info' }, { viaNpm: true });
    const running = product;
    descendants = descendantsOf(running.pid);
    // The server is npm's child (npm's script shell replaced by it through `exec`), not a grandchild.
    expect(descendants.length).toBeGreaterThan(0);

    let signalled = false;
    const results = await Promise.allSettled(
      Array.from({ length: N }, (_, index) =>
        fetch(
          `${running.url}/serve/d?p=${DEMO_BLOG_ID}&w=1280&u=${encodeURIComponent(`http://localhost/npm-stop/${index}`)}`,
          { headers: { 'user-agent': UA, 'x-forwarded-for': `198.51.100.${index + 1}`, origin: 'http://localhost' } },
        ).then(async (response) => {
          // As a supervisor would: to npm's own process, as soon as the first pageview is answered.
          if (!signalled) {
            signalled = true;
            process.kill(running.pid, 'SIGTERM');
          }
          const { ads } = (await response.json()) as { ads: unknown[] };
          return response.status === 200 && ads.length > 0;
        }),
      ),
    );
    await running.exited;
    const log = running.output.join('');
    expect(log).toContain('"signal":"SIGTERM"');
    expect(log).toContain('stopped cleanly');
    // No server left holding the port, the database lock or the data folder.
    await expect.poll(() => descendants.filter(isAlive), { timeout: 5_000 }).toEqual([]);
    await running.stop({ keepData: true });
    product = null;

    // Every decision answered was written by the graceful stop (they are answered before their batch commits).
    const answered = results.filter((result) => result.status === 'fulfilled' && result.value).length;
    expect(answered).toBeGreaterThan(0);
    const database = await openDatabase({ pgliteDir: join(running.dataDir, 'db') });
    try {
      const [decided] = await database.db
        .select({ total: count() })
        .from(adDecisions)
        .where(like(adDecisions.url, 'http://localhost/npm-stop/%'));
      expect(decided!.total).toBeGreaterThanOrEqual(answered);
    } finally {
      await database.close();
      rmSync(running.dataDir, { recursive: true, force: true });
    }
  });
});
