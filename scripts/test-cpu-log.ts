// A Vitest setup file, added when TEST_CPU_LOG names a file (vitest.config.ts): appends one JSON line per test file
// with the CPU seconds its worker used from the setup file on, its own (user, system) and its reaped children's (the
// products, Chromium, a Redis server), so that the costliest files can be found (`node scripts/test-cpu-report.mjs`).
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll } from 'vitest';

/** CPU seconds of this process and of the children it has waited for, from /proc (clock ticks of 1/100 s). */
function cpuNow(): number[] {
  // After the command's closing parenthesis come stat(5)'s fields from the 3rd: utime, stime, cutime, cstime are 14-17.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return [11, 12, 13, 14].map((index) => Number(fields[index]) / 100);
}

const start = cpuNow();
const startedAt = Date.now();
// Vitest wants the hook's first parameter (its context) destructured, and the file is the second.
// eslint-disable-next-line no-empty-pattern
afterAll(({}, suite) => {
  const [user, system, childUser, childSystem] = cpuNow().map((value, index) => +(value - start[index]!).toFixed(2));
  const file = 'filepath' in suite ? suite : undefined;
  const line = {
    project: file?.projectName,
    file: file?.filepath.replace(`${process.cwd()}/`, ''),
    wall: (Date.now() - startedAt) / 1000,
    user,
    system,
    childUser,
    childSystem,
    cpu: +(user! + system! + childUser! + childSystem!).toFixed(2),
  };
  appendFileSync(process.env.TEST_CPU_LOG!, `${JSON.stringify(line)}\n`);
});
