/**
 * node --import tsx scripts/bench/ip-ranges.ts [--file <ranges file>] [--against <another ip-ranges.ts>]
 *
 * What a data-centre range lookup costs, as the serving path does it on every pageview, view and click
 * (docs/performance.md, "IP range lookups"). The ranges: DATACENTER_IP_RANGES_FILE's format from `--file`, else a
 * fixed pseudo-random list the size of the providers' published ones (40,000 IPv4 and 15,000 IPv6 blocks). It
 * prints the time to load them and the nanoseconds per `IpRanges.has` over IPv4, IPv6 and IPv4-mapped addresses,
 * the best of several rounds, next to ipaddr.js's own `parse` alone. With `--against` (an older version, e.g.
 * `git show <commit>:apps/api/src/features/delivery/ip-ranges.ts > /tmp/old-ip-ranges.ts`), the same for that
 * one, the rounds interleaved so that both see the same machine load.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import ipaddr from 'ipaddr.js';
import { seededRandom } from '@helium/domain';
import { IpRanges } from '../../apps/api/src/features/delivery/ip-ranges.ts';

const { values } = parseArgs({ options: { file: { type: 'string' }, against: { type: 'string' } } });
const ROUNDS = 5;
const LOOKUPS = 200_000;
const random = seededRandom(34);
const byte = () => Math.floor(random() * 256);
const group = () => Math.floor(random() * 65536).toString(16);
const v4 = () => `${byte()}.${byte()}.${byte()}.${byte()}`;
const v6 = () =>
  `2${Math.floor(random() * 16).toString(16)}${byte().toString(16).padStart(2, '0')}:${group()}:${group()}::${group()}`;

function syntheticRanges(): string {
  const lines = ["# pseudo-random, the size of the cloud providers' lists"];
  for (let i = 0; i < 40_000; i += 1) lines.push(`${v4()}/${12 + Math.floor(random() * 17)}`);
  for (let i = 0; i < 15_000; i += 1) lines.push(`${v6()}/${29 + Math.floor(random() * 36)}`);
  return lines.join('\n');
}

const text = values.file ? readFileSync(values.file, 'utf8') : syntheticRanges();
const samples = {
  IPv4: Array.from({ length: 10_000 }, v4),
  IPv6: Array.from({ length: 10_000 }, v6),
  'IPv4-mapped': Array.from({ length: 10_000 }, () => `::ffff:${v4()}`),
};

interface Ranges {
  has(ip: string): boolean;
  readonly size: { v4: number; v6: number };
}
const implementations: Array<{ name: string; parse: (text: string) => Ranges }> = [
  { name: 'this one', parse: (ranges) => IpRanges.parse(ranges) },
];
if (values.against) {
  const other = (await import(resolve(values.against))) as { IpRanges: typeof IpRanges };
  implementations.push({ name: values.against, parse: (ranges) => other.IpRanges.parse(ranges) });
}

/** Milliseconds `work` takes. */
function timed(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

/** Nanoseconds per call of `lookup` over LOOKUPS calls cycling through `sample`. */
function perCall(sample: string[], lookup: (ip: string) => unknown): number {
  let found = 0;
  const ms = timed(() => {
    for (let i = 0; i < LOOKUPS; i += 1) if (lookup(sample[i % sample.length] as string)) found += 1;
  });
  if (found < 0) console.log(found);
  return (ms * 1e6) / LOOKUPS;
}

const contenders = [
  ...implementations.map(({ name, parse }) => {
    let ranges: Ranges = parse(text);
    return { name, load: () => (ranges = parse(text)), lookup: (ip: string) => ranges.has(ip), ranges: () => ranges };
  }),
  {
    name: 'ipaddr.js parse alone',
    load: () => undefined,
    lookup: (ip: string) => ipaddr.isValid(ip) && ipaddr.parse(ip),
    ranges: () => undefined,
  },
];
const best = new Map<string, number>();
const keep = (key: string, value: number) => best.set(key, Math.min(best.get(key) ?? Infinity, value));
for (let round = 0; round < ROUNDS; round += 1) {
  for (const contender of contenders) {
    if (contender.ranges()) keep(`${contender.name} load`, timed(contender.load));
    for (const [family, sample] of Object.entries(samples))
      keep(`${contender.name} ${family}`, perCall(sample, contender.lookup));
  }
}

const lineCount = text.split('\n').filter((line) => /^[0-9a-f]/i.test(line)).length;
const first = contenders[0]?.ranges() as Ranges;
console.log(
  `${lineCount} ranges (${first.size.v4} IPv4 and ${first.size.v6} IPv6 merged intervals); best of ${ROUNDS} rounds`,
);
for (const { name, ranges } of contenders) {
  const load = ranges() ? `loaded in ${best.get(`${name} load`)?.toFixed(0)} ms; ` : '';
  const lookups = Object.keys(samples).map((family) => `${family} ${best.get(`${name} ${family}`)?.toFixed(0)} ns`);
  console.log(`${name}: ${load}${lookups.join(', ')}`);
}
