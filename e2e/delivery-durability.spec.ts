import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apiSession, DEMO_BLOG_ID, totals } from './support/delivery.ts';
import { startProduct, type Product } from './support/product.ts';

const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const N = 40;

let product: Product | null = null;

afterAll(async () => {
  await product?.stop();
});

/** A visitor behind the local reverse proxy (X-Forwarded-For is trusted from loopback). */
const headers = (index: number) => ({ 'user-agent': UA, 'x-forwarded-for': `198.51.100.${index + 1}` });

describe('counting that loses nothing', () => {
  it('N view beacons answered 2xx, then SIGKILL, then restart: exactly N counted', async () => {
    product = await startProduct();
    const dataDir = product.dataDir;
    const before = await totals(await apiSession(product, 'admin@demo.test'));
    const tokens: string[] = [];
    for (let index = 0; index < N; index++) {
      const response = await fetch(
        `${product.url}/serve/d?p=${DEMO_BLOG_ID}&w=1280&u=${encodeURIComponent('http://localhost/page')}`,
        { headers: { ...headers(index), origin: 'http://localhost' } },
      );
      const { ads } = (await response.json()) as { ads: Array<{ view: string }> };
      expect(ads.length).toBeGreaterThan(0);
      tokens.push(ads[0]!.view);
    }
    const answers = await Promise.all(
      tokens.map((token, index) =>
        fetch(`${product!.url}/serve/v`, {
          method: 'POST',
          headers: { ...headers(index), 'content-type': 'text/plain' },
          body: token,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(N).fill(204));
    expect(answers.every((answer) => answer.headers.get('x-helium-counted') === 'counted')).toBe(true);

    await product.kill();
    product = await startProduct({}, { dataDir });
    const after = await totals(await apiSession(product, 'admin@demo.test'));
    expect(after.impressions - before.impressions).toBe(N);
    await product.stop();
    product = null;
    rmSync(dataDir, { recursive: true, force: true });
  });
});
