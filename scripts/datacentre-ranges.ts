/**
 * Writes the data-centre IP ranges file from the cloud providers' published lists:
 *   npm run datacentre-ranges -- --out data/datacentres.txt
 * then start the server with DATACENTER_IP_RANGES_FILE=data/datacentres.txt. Run it again now and then
 * (the providers add blocks); the server reads the file at start.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { IpRanges } from '../apps/api/src/features/delivery/ip-ranges.ts';
import { DATACENTRE_SOURCES, datacentreRangesFile } from '../apps/api/src/features/delivery/datacentre-sources.ts';

const { values } = parseArgs({ options: { out: { type: 'string', default: 'data/datacentres.txt' } } });
const out = values.out ?? 'data/datacentres.txt';
const lists = [];
for (const source of DATACENTRE_SOURCES) {
  const response = await fetch(source.url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`${source.name}: ${source.url} answered ${response.status}`);
  const ranges = source.parse(await response.text());
  if (ranges.length === 0) throw new Error(`${source.name}: no ranges in ${source.url} (has its format changed?)`);
  lists.push({ source, ranges });
  console.log(`${source.name}: ${ranges.length} ranges`);
}
const text = datacentreRangesFile(lists, new Date());
// Parsed before it is written: the server refuses to start on a file it cannot read.
const parsed = IpRanges.parse(text, out);
writeFileSync(out, text);
console.log(`${out}: ${parsed.size.v4} IPv4 and ${parsed.size.v6} IPv6 intervals`);
