import path from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';

type WebServer = Extract<PlaywrightTestConfig['webServer'], unknown[]>[number];

export const e2ePort = Number(process.env.E2E_PORT ?? 3199);
export const e2eSmtpPort = Number(process.env.E2E_SMTP_PORT ?? 2526);

/**
 * The journeys run on two portals, each a server in demo mode on an embedded database of its own,
 * with a loopback SMTP server of its own (e2e/support/global-setup.ts) whose messages land in its
 * mail folder. "main" serves the back office and the physicians; "sequence" serves the journeys
 * that change the demo accounts for good, one after another (John, payments, forms, orders,
 * prices): on a portal of their own they read nothing the others change, so they run at the same
 * time as the rest.
 */
export const e2ePortals = {
  main: {
    port: e2ePort,
    smtpPort: e2eSmtpPort,
    dataDir: path.resolve('.tmp/e2e-data'),
    /** Everything the server printed during the journeys, for the check that no card number was logged. */
    serverLog: path.resolve('.tmp/e2e-server.log'),
    mailDir: path.resolve('.tmp/e2e-mail/main'),
  },
  sequence: {
    port: e2ePort + 1,
    smtpPort: e2eSmtpPort + 1,
    dataDir: path.resolve('.tmp/e2e-data-sequence'),
    serverLog: path.resolve('.tmp/e2e-server-sequence.log'),
    mailDir: path.resolve('.tmp/e2e-mail/sequence'),
  },
};
export type E2ePortalName = keyof typeof e2ePortals;
const originOf = (name: E2ePortalName) => `http://127.0.0.1:${e2ePortals[name].port}`;

const desktopChromium = { ...devices['Desktop Chrome'], channel: undefined };
/**
 * Beside the main project, at the same time, on the same portal: the idle sign-out (Jane signed in
 * and out on the main portal, the rest on a portal of its own) and physicians' journeys on clients
 * they register for the run. None of them changes what a main journey reads, nor reads what one
 * changes: the demo admin, John (ACT10002), Noah (ACT10011) and the billing run stay there. (The
 * other physicians', sign-in and recovery journeys, as independent, run in the main project, to
 * share the two browsers' time evenly.)
 */
const besideMain = /(idle-sign-out|physician-(acts-for-client|initial-processing))\.spec\.ts$/;
/**
 * The journeys that change the demo accounts for good, on the "sequence" portal, in the order of
 * their folders' names (a project runs its files in the order of their paths):
 * 1. John's record with its audit trail, whose newest read must be the admin's (any John sign-in, or
 *    a physician's list of clients, adds a read), then John's orders, which pay his overdue years;
 * 2. payment methods saved for good (Jane gets a card, John's overdue fees are paid);
 * 3. the forms, signed once per client: Jane signs her consent with the Visa saved in 2 and pays
 *    White Glove Labs with it; Ana and Sam (seeded for this) take the other screening routes;
 * 4. orders that move Jane's paid-until date and add vials;
 * 5. a price version of its own in force for a while (the shipped prices are put back at its end):
 *    every journey pinning the shipped prices runs before.
 */
const inSequence = /sequence\/.+\.spec\.ts$/;

function onPortal(name: E2ePortalName) {
  return { ...desktopChromium, baseURL: originOf(name) };
}

/** One portal's server: demo mode on a fresh embedded database, mail to the portal's SMTP server. */
function portalServer(name: E2ePortalName): WebServer {
  const { port, smtpPort, dataDir, serverLog } = e2ePortals[name];
  return {
    // `exec` makes the server the process Playwright stops, so the stop waits for it to close PGlite.
    // Its output, start-up errors included, is in the portal's serverLog.
    command: `mkdir -p "${path.dirname(serverLog)}" && : > "${serverLog}" && rm -rf "${dataDir}" && exec tsx src/server/server.ts >> "${serverLog}" 2>&1`,
    url: `${originOf(name)}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    // Stopped with SIGTERM, not killed: PGlite writes lazily and the scan for card numbers reads its files.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'true',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Client Portal <no-reply@portal.test>',
      PUBLIC_URL: originOf(name),
      LOG_LEVEL: 'info',
      RATE_LIMIT_LOGIN_PER_IP: '10000',
      RATE_LIMIT_RECOVERY_PER_IP: '10000',
      RATE_LIMIT_VERIFY_PER_IP: '10000',
      RATE_LIMIT_PAYMENT_PER_IP: '10000',
      RATE_LIMIT_PAYMENT_PER_CLIENT: '10000',
      // Not the default, so e2e/portal-frame.spec.ts shows the link comes from the configuration.
      CONTACT_URL: 'https://bank.example.org/contact-us',
      // The same key e2e/sequence/2-payments/public-payment-pages.spec.ts signs its link with.
      LINK_SECRET: 'e2e-link-secret-with-at-least-32-characters',
      // The offline carrier's hour lasts half a second: a package is delivered 11 seconds after its label.
      OFFLINE_CARRIER_HOUR_MS: '500',
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  // Two browsers at most, one per project (see the projects): journeys share the demo accounts (a
  // password reset ends John's sessions), so only journeys that leave each other's accounts alone,
  // or run on the other portal, run at the same time.
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
  // Each project runs its files one after another, in the order of their paths. Two run at a time:
  // a free worker takes the next file of the first project (in this order) not running one, so
  // "main" runs on one worker from start to end, "beside main" then "sequence" on the other (about
  // 430 s each on this 2-core machine). A file of the sequence run alone meets the demo accounts as seeded, not as the files
  // before it leave them.
  projects: [
    {
      // The back office's journeys, and the other journeys of the main portal that need it to themselves.
      name: 'main',
      testIgnore: [besideMain, inSequence],
      // The demo admin's kept session and TOTP steps (support/staff.ts) are one worker's.
      workers: 1,
      use: onPortal('main'),
      metadata: { portal: 'main' },
    },
    {
      name: 'beside main',
      testMatch: besideMain,
      workers: 1,
      use: onPortal('main'),
      metadata: { portal: 'main' },
    },
    // One project, not one per step: Playwright starts a project that depends on another only once
    // every project of the earlier stage is done, so steps of their own would wait for the others.
    {
      name: 'sequence',
      testMatch: inSequence,
      workers: 1,
      use: onPortal('sequence'),
      metadata: { portal: 'sequence' },
    },
  ],
  webServer: (['main', 'sequence'] as const).map(portalServer),
});
