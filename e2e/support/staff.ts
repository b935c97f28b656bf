import fs from 'node:fs';
import path from 'node:path';
import { type BrowserContext, expect, type Page } from '@playwright/test';
import { generate } from 'otplib';

/** The demo admin of the README. */
export const DEMO_ADMIN = {
  email: 'staff@example.com',
  password: 'DemoStaff#2026',
  totpSecret: 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD',
} as const;

/** The last TOTP time step a journey spent, kept across spec files (their workers may differ). */
const spentStepFile = path.resolve('.tmp/e2e-demo-admin-totp-step');
/** The demo admin's session cookies of each portal (origin), kept across spec files. */
const keptSessionsFile = path.resolve('.tmp/e2e-demo-admin-sessions.json');

type KeptCookies = Parameters<BrowserContext['addCookies']>[0];

function keptSessions(): Record<string, KeptCookies> {
  try {
    return JSON.parse(fs.readFileSync(keptSessionsFile, 'utf8')) as Record<string, KeptCookies>;
  } catch {
    return {};
  }
}

function lastSpentStep(): number {
  try {
    return Number(fs.readFileSync(spentStepFile, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

/**
 * The demo admin signed in at /staff. A TOTP code's time step is good once (the server takes the
 * current step's code or the next one's, each later than the last step spent), so the journeys
 * could sign the demo admin in only twice in 30 seconds. A journey that needs the back office but
 * is not about signing in goes on with the session the last one left, while the server still
 * knows it (a journey may have signed out); otherwise it signs in (`signInAsDemoAdminAnew`).
 */
export async function signInAsDemoAdmin(page: Page) {
  await page.goto('/staff');
  const { origin } = new URL(page.url());
  const kept = keptSessions()[origin];
  if (kept) {
    await page.context().addCookies(kept);
    if ((await page.request.get(`${origin}/api/staff/session`)).ok()) {
      await page.goto('/staff/home');
      await expect(page).toHaveURL(/\/staff\/home$/);
      return;
    }
    await page.context().clearCookies();
  }
  await signInAsDemoAdminAnew(page);
  const sessions = keptSessions();
  sessions[origin] = await page.context().cookies(origin);
  fs.writeFileSync(keptSessionsFile, JSON.stringify(sessions));
}

/**
 * The demo admin signs in at /staff with password and code. Each sign-in takes the first step
 * after the last one a journey spent (waiting when that is more than one step ahead): no code is
 * refused, and the account's budget of 10 wrong codes in 15 minutes is never spent by the journeys.
 */
export async function signInAsDemoAdminAnew(page: Page) {
  await page.goto('/staff');
  await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_ADMIN.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(DEMO_ADMIN.password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await enterDemoAdminCode(page);
}

/**
 * On the second-factor page: enters the demo admin's code of the first time step after the last
 * one any journey spent (see above), verifies it, and records the step as spent. Every journey
 * that signs the demo admin in goes through here, or the next one would reuse a spent step.
 */
export async function enterDemoAdminCode(page: Page) {
  const codeBox = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(codeBox).toBeVisible();
  const nowStep = () => Math.floor(Date.now() / 30_000);
  const step = Math.max(nowStep(), lastSpentStep() + 1);
  while (step > nowStep() + 1) await page.waitForTimeout(1_000);
  await codeBox.fill(await generate({ secret: DEMO_ADMIN.totpSecret, epoch: step * 30 }));
  const [answer] = await Promise.all([
    page.waitForResponse(
      (r) => r.url().endsWith('/api/staff/verify_totp') && r.request().method() === 'POST',
    ),
    page.getByRole('button', { name: 'Verify' }).click(),
  ]);
  if (!answer.ok()) throw new Error(`the demo admin could not sign in (${answer.status()})`);
  fs.mkdirSync(path.dirname(spentStepFile), { recursive: true });
  fs.writeFileSync(spentStepFile, String(step));
  await expect(page).toHaveURL(/\/staff\/home$/);
}
