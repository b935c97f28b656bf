import { defineConfig } from 'vitest/config';

// One id per run, shared by globalSetup and the workers it forks, to name the template database.
process.env.TEST_RUN_ID ??= String(process.pid);

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
        },
      },
      {
        test: {
          name: 'server',
          include: ['src/server/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['src/server/testing/global-setup.ts'],
          // A hang guard, not a speed limit: OCR of a PDF takes 15 s on a quiet machine, far more
          // on a loaded one, and a test never fails because the machine was slow.
          testTimeout: 300_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
