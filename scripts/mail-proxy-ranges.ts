/**
 * Rewrites the mail proxies' address ranges (apps/api/src/features/delivery/mail-proxy-ranges.txt) from the lists
 * Google and Apple publish:
 *   npm run mail-proxy-ranges
 *   npm run mail-proxy-ranges -- --from <folder>   (copies of the lists, named as in their URLs)
 * then commit the file: the server reads it at start (docs/configuration.md, "Newsletter opens from mail proxies").
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MAIL_PROXY_RANGES_FILE, MailProxyRanges } from '../apps/api/src/features/delivery/mail-proxies.ts';
import { MAIL_PROXY_SOURCES, mailProxyRangesFile } from '../apps/api/src/features/delivery/mail-proxy-sources.ts';

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: MAIL_PROXY_RANGES_FILE },
    from: { type: 'string' },
    /** When the copies read with --from were taken, for a list that carries no date of its own. */
    taken: { type: 'string' },
    /** Where copies read with --from came from, written under each section. */
    note: { type: 'string', multiple: true },
  },
});
const out = values.out ?? MAIL_PROXY_RANGES_FILE;

async function body(url: string): Promise<string> {
  if (values.from) return readFileSync(join(values.from, url.split('/').pop() ?? url), 'utf8');
  const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return response.text();
}

const lists = [];
for (const [index, source] of MAIL_PROXY_SOURCES.entries()) {
  const { ranges, publishedAt } = source.parse(await Promise.all(source.urls.map(body)));
  if (ranges.length === 0) throw new Error(`${source.provider}: no ranges (has a list's format changed?)`);
  const takenAt = publishedAt ?? values.taken ?? new Date().toISOString();
  lists.push({ source, ranges, takenAt, note: values.note?.[index] });
  console.log(`${source.provider}: ${ranges.length} ranges`);
}
const text = mailProxyRangesFile(lists);
// Parsed before it is written: the server refuses to start on a file it cannot read.
const parsed = MailProxyRanges.parse(text, out);
writeFileSync(out, text);
console.log(`${out}: ${JSON.stringify(parsed.sizes)}`);
