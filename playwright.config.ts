import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

export const e2ePort = Number(process.env.E2E_PORT ?? 3199);
export const e2eSmtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);
export const e2eDataDir = path.resolve('.tmp/e2e-data');
/** Everything the server printed during the journeys, for the check that no card number was logged. */
export const e2eServerLog = path.resolve('.tmp/e2e-server.log');
const desktopChromium = { ...devices['Desktop Chrome'], channel: undefined };
const savesPaymentMethods = /(payment-information|public-payment-pages)\.spec\.ts$/;
/** The forms are signed once per client: these run after every journey that expects them unsigned. */
const signsForms = /forms-[\w-]+\.spec\.ts$/;
/** Orders that change the demo accounts for good (Jane's paid-until date and vials, Client Activity rows). */
const placesOrders = /(banking-storage-plans|store)\.spec\.ts$/;
/** Puts a staff price version in force for a while: every journey pinning the shipped prices runs before. */
const changesPrices = /price-book-pages\.spec\.ts$/;
/**
 * Beside the back office, at the same time: physicians' journeys on Olivia (ACT10014) and on clients
 * they register for the run, the sign-in and password recovery journeys on clients of their own,
 * and the idle sign-out (Jane signed in and out on the shared portal, the rest on a portal of its
 * own). None of them changes what a back office journey reads, nor reads what one changes: the
 * demo admin, John (ACT10002), Noah (ACT10011) and the billing run stay there.
 */
const besideBackOffice =
  /(idle-sign-out|sign-in|password-recovery|physician-(acts-for-client|cell-request|initial-processing|portal))\.spec\.ts$/;
/**
 * After both: John's record with its audit trail, whose newest read must be the admin's (any John
 * sign-in, or a physician's list of clients, adds a read), then John's orders, which pay his overdue
 * years that the back office's journeys read.
 */
const readsJohnsTrail = /(staff-back-office|stem-cell-request)\.spec\.ts$/;

export default defineConfig({
  testDir: 'e2e',
  // Two browsers at most, one per project (see the projects): journeys share the demo accounts (a
  // password reset ends John's sessions), so only journeys that leave each other's accounts alone
  // run at the same time.
  workers: 2,
  fullyParallel: false,
  // In CI a journey that fails is run once more, and named as flaky in the summary (scripts/test.ts)
  // when it then passes: a slow moment on a loaded machine does not stop a landing unseen.
  retries: process.env.CI ? 1 : 0,
  timeout: 120_000,
  // Generous: a loaded machine is slow, and a journey must not fail for that alone.
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  globalSetup: './e2e/support/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${e2ePort}`,
    // A trace records every action with the page's DOM and a screencast: a quarter of a journey's
    // time on this 2-core machine. CI's clone is thrown away after the run and its log is what is
    // read, so CI keeps the failure's screenshot and error context only; elsewhere a failed
    // journey leaves its trace (npx playwright show-trace).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Each project runs its files one after another, in the order of their names. "back office" and
  // "physicians" run at the same time; each project below starts once those it depends on are done
  // (and is skipped if one failed). A file of a later project run alone needs `--no-deps`, or its
  // dependencies run first, whole.
  projects: [
    {
      name: 'back office',
      testIgnore: [
        savesPaymentMethods,
        signsForms,
        placesOrders,
        changesPrices,
        besideBackOffice,
        readsJohnsTrail,
      ],
      // The demo admin's kept session and TOTP steps (support/staff.ts) are one worker's.
      workers: 1,
      use: desktopChromium,
    },
    { name: 'physicians', testMatch: besideBackOffice, workers: 1, use: desktopChromium },
    {
      name: 'john',
      testMatch: readsJohnsTrail,
      dependencies: ['back office', 'physicians'],
      workers: 1,
      use: desktopChromium,
    },
    // Then these journeys save payment methods for the demo accounts for good (Jane gets a card,
    // John's overdue fees are paid) and the journeys above expect the accounts as seeded.
    {
      name: 'payments',
      testMatch: savesPaymentMethods,
      dependencies: ['john'],
      workers: 1,
      use: desktopChromium,
    },
    // After the payments: Jane signs her consent with the Visa she saved there on file, and pays
    // White Glove Labs with it; Ana and Sam (seeded for this) take the other screening routes.
    { name: 'forms', testMatch: signsForms, dependencies: ['payments'], workers: 1, use: desktopChromium },
    // After those: these orders move Jane's paid-until date and add vials, which the journeys
    // above read as seeded.
    { name: 'orders', testMatch: placesOrders, dependencies: ['forms'], workers: 1, use: desktopChromium },
    // After everything: a price version of its own is in force while it runs (the shipped prices
    // are put back at its end); any journey meeting it would read prices it does not pin.
    { name: 'prices', testMatch: changesPrices, dependencies: ['orders'], workers: 1, use: desktopChromium },
  ],
  webServer: {
    // `exec` makes the server the process Playwright stops, so the stop waits for it to close PGlite.
    // Its output, start-up errors included, is in e2eServerLog.
    command: `mkdir -p "${path.dirname(e2eServerLog)}" && : > "${e2eServerLog}" && rm -rf "${e2eDataDir}" && exec tsx src/server/server.ts >> "${e2eServerLog}" 2>&1`,
    url: `http://127.0.0.1:${e2ePort}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // Stopped with SIGTERM, not killed: PGlite writes lazily and the scan for card numbers reads its files.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(e2ePort),
      HOST: '127.0.0.1',
      DATA_DIR: e2eDataDir,
      DEMO: 'true',
      SMTP_URL: `smtp://127.0.0.1:${e2eSmtpPort}`,
      MAIL_FROM: 'Client Portal <no-reply@portal.test>',
      PUBLIC_URL: `http://127.0.0.1:${e2ePort}`,
      LOG_LEVEL: 'info',
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_RECOVERY_PER_IP: '10000',
      RATE_LIMIT_VERIFY_PER_IP: '10000',
      RATE_LIMIT_PAYMENT_PER_IP: '10000',
      RATE_LIMIT_PAYMENT_PER_CLIENT: '10000',
      // Not the default, so e2e/portal-frame.spec.ts shows the link comes from the configuration.
      CONTACT_URL: 'https://bank.example.org/contact-us',
      // The same key e2e/public-payment-pages.spec.ts signs its link with.
      LINK_SECRET: 'e2e-link-secret-with-at-least-32-characters',
      // The offline carrier's hour lasts half a second: a package is delivered 11 seconds after its label.
      OFFLINE_CARRIER_HOUR_MS: '500',
    },
  },
});
