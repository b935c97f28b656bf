import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

// One id per run, shared by globalSetup and the workers it forks, to name the template database.
process.env.TEST_RUN_ID ??= String(process.pid);

/** Server test files that replace a module with vi.mock: each runs with imports of its own. */
const mocksModules = ['src/server/modules/auth/recovery-work.test.ts'];

const server: TestProjectInlineConfiguration['test'] = {
  environment: 'node',
  globalSetup: ['src/server/testing/global-setup.ts'],
  // A hang guard, not a speed limit: OCR of a PDF takes 15 s on a quiet machine, far more
  // on a loaded one, and a test never fails because the machine was slow.
  testTimeout: 300_000,
  hookTimeout: 120_000,
  pool: 'forks',
};

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'domain',
          include: ['src/domain/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          // The repository's own checks (import cycles): their rules, on small fixtures.
          name: 'scripts',
          include: ['scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['src/web/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['src/web/testing/setup.ts'],
          // Typing and clicking through Mantine in jsdom takes seconds on a loaded 2-core machine:
          // a test proves a rule, never the machine's speed.
          testTimeout: 60_000,
          // A worker imports React and Mantine once for all the files it runs, not once per file
          // (the project 108 s to 47 s); each file still gets a fresh jsdom document, and a global
          // a test stubs (fetch) is put back after it.
          isolate: false,
          unstubGlobals: true,
        },
      },
      {
        test: {
          ...server,
          name: 'server',
          include: ['src/server/**/*.test.ts'],
          exclude: mocksModules,
          // A worker imports the app once for all the files it runs, not once per file (on
          // PostgreSQL in CI: 303 s to 181 s, of which import 175 s to 13 s). Each file still has
          // its own database and its own app (testing/test-app.ts); a file that replaces a module
          // (vi.mock) cannot share the others' imports and runs in the project below.
          isolate: false,
        },
      },
      {
        test: {
          ...server,
          name: 'server-isolated',
          include: mocksModules,
          // Its own template database: each project's global setup makes one and drops it.
          env: { TEST_TEMPLATE: 'isolated' },
        },
      },
    ],
  },
});
