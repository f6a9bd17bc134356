import { defineConfig } from 'vitest/config';

const postgresUrl = process.env.TEST_DATABASE_URL;
/** With TEST_CPU_LOG=<file>, each test file's CPU seconds are appended to it (scripts/test-cpu-log.ts). */
const setupFiles = process.env.TEST_CPU_LOG ? ['scripts/test-cpu-log.ts'] : [];
/** The tests that open embedded databases keep PGlite's WebAssembly compiled for the worker's life (see the file). */
const withPglite = ['packages/db/test/support/keep-pglite-compiled.ts', ...setupFiles];
/**
 * The unit and API test files of a project run one after another in a few long-lived workers (Vitest's `isolate:
 * false`) instead of a new process each: the server's code loads once per worker, not once per file (measured: 32 ->
 * 18 CPU s on twelve API files on PostgreSQL, 61 -> 45 on PGlite, 58 -> 42 for the unit tests). Module state therefore
 * outlives a file: a file that mocks a module others load reloads the modules first (ads/upload.test.ts), and one
 * that changes a global puts it back.
 */
const isolate = false;

/**
 * One runner for every suite: unit (pure logic), api (the real app through inject, on PGlite, and on
 * PostgreSQL too when TEST_DATABASE_URL is set), e2e (the started product driven in Chromium).
 */
export default defineConfig({
  test: {
    // Vitest's default on this 2-core machine is one worker (cores - 1), which leaves a core idle while a test
    // waits for its database's thread, PostgreSQL or the browser: three keep both busy (measured: 104 -> 83 s on
    // twelve API files).
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          isolate,
          setupFiles: withPglite,
          include: [
            'packages/*/test/**/*.test.ts',
            'apps/web/src/**/*.test.{ts,tsx}',
            'apps/publisher-script/test/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
          // The embedded-database tests (packages/db/test) run thousands of statements: seconds on a loaded machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'api',
          isolate,
          setupFiles: withPglite,
          include: ['apps/api/{src,test}/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      ...(postgresUrl
        ? [
            {
              test: {
                name: 'api-postgres',
                isolate,
                setupFiles,
                include: ['apps/api/{src,test}/**/*.test.ts'],
                env: { TEST_DB: 'postgres', TEST_DATABASE_URL: postgresUrl },
                testTimeout: 30_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
      {
        test: {
          name: 'e2e',
          setupFiles,
          include: ['e2e/**/*.spec.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          fileParallelism: false,
          // A loaded CI machine answers a screen's change in seconds, not in expect.poll's default 1 s.
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
