import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface AssetSizes {
  files: number;
  bytes: number;
  gzipBytes: number;
}

export interface WebBundleSizes {
  /** What the first visit to any screen downloads before the app runs: what index.html names under /assets/. */
  initial: AssetSizes;
  /** Every script and stylesheet of the build (the screens' lazy chunks included). */
  total: AssetSizes;
  /** The largest file, gzipped. */
  largest: { file: string; gzipBytes: number };
}

const sizesOf = (dist: string, files: readonly string[]): AssetSizes => {
  let bytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = readFileSync(join(dist, 'assets', file));
    bytes += content.length;
    gzipBytes += gzipSync(content, { level: 9 }).length;
  }
  return { files: files.length, bytes, gzipBytes };
};

/** The web app's built sizes (`apps/web/dist`, as `npm run build` makes it), raw and gzipped at level 9. */
export function webBundleSizes(dist: string): WebBundleSizes {
  const assets = readdirSync(join(dist, 'assets')).filter((file) => /\.(js|css)$/.test(file));
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const named = new Set([...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)].map((match) => match[1]!));
  const initial = assets.filter((file) => named.has(file));
  let largest = { file: '', gzipBytes: 0 };
  for (const file of assets) {
    const gzipBytes = gzipSync(readFileSync(join(dist, 'assets', file)), { level: 9 }).length;
    if (gzipBytes > largest.gzipBytes) largest = { file, gzipBytes };
  }
  return { initial: sizesOf(dist, initial), total: sizesOf(dist, assets), largest };
}
