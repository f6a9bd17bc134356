/** The Prometheus text format as a strict reader sees it (metrics.test.ts; tests that read one metric). */

/** One sample of the exposition: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const VALUE = '[+-]?(?:\\d+(?:\\.\\d*)?(?:e[+-]?\\d+)?|\\.\\d+(?:e[+-]?\\d+)?|Inf|NaN)';
const SAMPLE_LINE = new RegExp(
  `^(${METRIC_NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*,?)?\\})? (${VALUE})(?: -?\\d+)?$`,
  'i',
);
const HELP_LINE = new RegExp(`^# HELP (${METRIC_NAME}) .*$`);
const TYPE_LINE = new RegExp(`^# TYPE (${METRIC_NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/**
 * Reads the Prometheus text exposition format (version 0.0.4) strictly: every line is a HELP, a TYPE, a comment, a
 * blank or a sample; a metric's TYPE comes once and before its samples, and each sample belongs to the metric its
 * TYPE line declared (a histogram's `_bucket`, `_sum`, `_count`). Throws on the first line that breaks a rule.
 */
export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  let current: string | null = null;
  for (const [index, line] of text.split('\n').entries()) {
    const fail = (why: string) => new Error(`line ${index + 1}: ${why}: ${line}`);
    if (line === '' || (line.startsWith('#') && !/^# (HELP|TYPE) /.test(line))) continue;
    if (line.startsWith('# HELP ')) {
      if (!HELP_LINE.test(line)) throw fail('bad HELP');
      continue;
    }
    const typed = TYPE_LINE.exec(line);
    if (typed) {
      if (types.has(typed[1]!)) throw fail('a second TYPE');
      // As promtool's lint: `_total` names counters, and only them.
      if ((typed[2] === 'counter') !== typed[1]!.endsWith('_total')) throw fail('a counter is named *_total, only it');
      types.set(typed[1]!, typed[2]!);
      current = typed[1]!;
      continue;
    }
    if (line.startsWith('#')) throw fail('bad TYPE');
    const sample = SAMPLE_LINE.exec(line);
    if (!sample) throw fail('not a sample');
    const name = sample[1]!;
    const type = current ? types.get(current) : undefined;
    const allowed = (SUFFIXES[type ?? ''] ?? ['']).map((suffix) => `${current}${suffix}`);
    if (!current || !allowed.includes(name)) throw fail(`a sample outside its metric (${current})`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[key!] = value!;
    }
    samples.push({ name, labels, value: Number(sample[3]!.replace(/^\+?Inf$/i, 'Infinity')) });
  }
  return { samples, types };
}

/** The sum of the samples of `name` whose labels include `labels`. */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}
