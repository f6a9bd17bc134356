#!/usr/bin/env node
// Sums a TEST_CPU_LOG file (scripts/test-cpu-log.ts) by project and lists its costliest test files:
// `node scripts/test-cpu-report.mjs <log> [how many, 25 by default]`.
import { readFileSync } from 'node:fs';

const [log, top = '25'] = process.argv.slice(2);
if (!log) throw new Error('usage: node scripts/test-cpu-report.mjs <log> [count]');
const lines = readFileSync(log, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const byProject = new Map();
for (const line of lines) {
  const sum = byProject.get(line.project) ?? { files: 0, cpu: 0, children: 0 };
  sum.files += 1;
  sum.cpu += line.cpu;
  sum.children += line.childUser + line.childSystem;
  byProject.set(line.project, sum);
}
console.log('project        files  CPU s  (of which children)');
for (const [project, sum] of byProject)
  console.log(
    `${String(project).padEnd(14)} ${String(sum.files).padStart(5)} ${sum.cpu.toFixed(0).padStart(6)}  (${sum.children.toFixed(0)})`,
  );
console.log(`\nCostliest ${top} files (CPU s, wall s):`);
for (const line of lines.sort((a, b) => b.cpu - a.cpu).slice(0, Number(top)))
  console.log(`${line.cpu.toFixed(1).padStart(7)} ${line.wall.toFixed(0).padStart(5)}  ${line.project} ${line.file}`);
