/**
 * Everything CI runs, in order: lint (Biome, import boundaries, cycles, repeated code), types,
 * unit and API tests on PGlite (with TEST_DATABASE_URL set: the API tests on PostgreSQL instead,
 * and the fault suite, servers killed and connections cut mid-load), the web build, the browser journeys in Chromium, and a
 * scan of what the journeys left (database, server log, e-mails) for any card or account number.
 * The journeys are mandatory in CI; elsewhere a missing Chromium is reported plainly and skipped.
 * Ends with one line "Summary: N passed, N failed".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules/.bin', name);
const ci = Boolean(process.env.CI);
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const resultsDir = path.join(root, 'test-results');
fs.mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;
const failures: string[] = [];
/** Each failed test by name, printed again beside the summary so a short log still says which. */
const failedTests: string[] = [];
/** Journeys that failed once and passed on their retry (CI retries a journey once): counted as passed, named. */
const flakyTests: string[] = [];
/** Tests that did not run, and why (neither passed nor failed). */
const notRun: string[] = [];

/** How long each step took, printed with the summary: CI's time is the sum (issue 20: under 20 minutes). */
const timings: Array<{ title: string; seconds: number }> = [];

function run(title: string, command: string, args: string[], env: Record<string, string | undefined> = {}) {
  console.log(`\n=== ${title} ===`);
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  timings.push({ title, seconds: Math.round((performance.now() - started) / 1000) });
  if (result.status !== 0) failures.push(title);
  return result.status === 0;
}

function countVitest(file: string) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    testResults?: {
      name: string;
      assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
    }[];
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const reason = (test.failureMessages?.[0] ?? '').split('\n')[0]?.slice(0, 300);
      failedTests.push(`${path.relative(root, file.name)} › ${test.fullName}: ${reason}`);
    }
  }
}

/** The fault suite counts each of its checks (per scenario) as a test. */
function countFaults(file: string) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as { passed: number; failed: number };
  passed += report.passed;
  failed += report.failed;
}

type PlaywrightSuite = {
  file?: string;
  specs?: { title: string; ok: boolean; tests?: { status: string }[] }[];
  suites?: PlaywrightSuite[];
};

function countPlaywright(file: string) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites?: PlaywrightSuite[];
  };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  // No journey skips itself: a skipped one waited for a project (playwright.config.ts) that failed.
  if (report.stats.skipped > 0)
    notRun.push(`${report.stats.skipped} browser journeys, after a project they wait for failed`);
  const walk = (suite: PlaywrightSuite, file: string) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.ok) failedTests.push(`${file} › ${spec.title}`);
      else if (spec.tests?.some((test) => test.status === 'flaky'))
        flakyTests.push(`${file} › ${spec.title}`);
    }
    for (const child of suite.suites ?? []) walk(child, suite.file ?? file);
  };
  for (const suite of report.suites ?? []) walk(suite, suite.file ?? '');
}

run('lint (Biome)', bin('biome'), ['check', '.']) &&
  run('import boundaries', bin('tsx'), ['scripts/check-boundaries.ts']) &&
  run('no import cycles (type-only imports included)', bin('tsx'), ['scripts/check-cycles.ts']) &&
  run('repeated code no more than its ceiling (jscpd)', bin('tsx'), ['scripts/check-duplicates.ts']) &&
  run('Mantine styles for every component in use', bin('tsx'), ['scripts/check-mantine-styles.ts']);
run('type check', bin('tsc'), ['--noEmit', '-p', '.']);

/**
 * With PostgreSQL (CI), the API tests run there, where concurrency is real, and once: on PGlite
 * only the database layer's own tests run beside the unit tests (the journeys' server runs on
 * PGlite too). Without it, everything runs on PGlite.
 */
const postgres = Boolean(process.env.TEST_DATABASE_URL);
const pgliteScope = postgres
  ? ['--project', 'domain', '--project', 'scripts', '--project', 'web', '--project', 'server'].concat([
      'src/domain/',
      'scripts/',
      'src/web/',
      'src/server/db/',
    ])
  : [];
const pgliteReport = path.join(resultsDir, 'vitest-pglite.json');
fs.rmSync(pgliteReport, { force: true });
run(
  postgres ? 'unit tests and the database layer (PGlite)' : 'unit and API tests (PGlite)',
  bin('vitest'),
  ['run', ...pgliteScope, '--reporter=default', '--reporter=json', `--outputFile.json=${pgliteReport}`],
  { TEST_DATABASE_URL: undefined, TEST_DATABASE_MIGRATION_URL: undefined },
);
countVitest(pgliteReport);

if (postgres) {
  const pgReport = path.join(resultsDir, 'vitest-postgres.json');
  fs.rmSync(pgReport, { force: true });
  run('API tests (PostgreSQL)', bin('vitest'), [
    'run',
    '--project',
    'server',
    '--project',
    'server-isolated',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${pgReport}`,
  ]);
  countVitest(pgReport);

  const faultReport = path.join(resultsDir, 'faults.json');
  fs.rmSync(faultReport, { force: true });
  const faultsTitle = 'fault suite (PostgreSQL: SIGKILL, lost connections)';
  const faultsRan = run(faultsTitle, 'npm', ['run', 'test:faults'], { FAULT_REPORT: faultReport });
  // A suite that died before writing its report still counts as one failure.
  if (!faultsRan && !fs.existsSync(faultReport)) failed += 1;
  countFaults(faultReport);
} else {
  console.log(
    '\nTEST_DATABASE_URL is not set: the API tests ran on PGlite only, and the fault suite did not run.',
  );
}

run('web build', bin('vite'), ['build', '--logLevel', 'warn']);

if (fs.existsSync(chromium)) {
  const e2eReport = path.join(resultsDir, 'e2e.json');
  fs.rmSync(e2eReport, { force: true });
  run('browser journeys (Playwright, Chromium)', bin('playwright'), ['test', '--reporter=list,json'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
  });
  countPlaywright(e2eReport);
  // Only once the journeys ran: they leave the database, server log and e-mails this reads.
  if (fs.existsSync(e2eReport)) {
    if (run('no card or account number kept', bin('tsx'), ['e2e/support/scan-for-numbers.ts'])) passed += 1;
    else failed += 1;
  }
} else if (ci) {
  console.error(`\nChromium is missing at ${chromium}: the browser journeys are mandatory in CI.`);
  failures.push('browser journeys (Chromium missing)');
  failed += 1;
} else {
  console.log(
    `\nThe browser journeys did NOT run: no Chromium at ${chromium}.` +
      '\nInstall it with: sudo apt-get update && sudo apt-get install -y chromium' +
      '\n(or set CHROMIUM_PATH), then run npm test again.',
  );
}

console.log('\nTime per step:');
for (const { title, seconds } of timings) console.log(`  ${String(seconds).padStart(5)} s  ${title}`);
console.log(`  ${String(timings.reduce((sum, step) => sum + step.seconds, 0)).padStart(5)} s  in all`);
console.log(failures.length > 0 ? `\nFailed steps: ${failures.join('; ')}` : '\nAll steps passed.');
for (const test of failedTests) console.log(`Failed: ${test}`);
for (const test of flakyTests) console.log(`Flaky (failed once, passed on its retry): ${test}`);
for (const tests of notRun) console.log(`Not run: ${tests}`);
console.log(`Summary: ${passed} passed, ${failed} failed`);
process.exit(failures.length > 0 ? 1 : 0);
