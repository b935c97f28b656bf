import { type Browser, expect } from '@playwright/test';
import { waitForMail } from './mail';

/** MM/DD/YYYY of today plus some days, on the bank's calendar (New York). */
export function usDate(days = 0) {
  const date = new Date(Date.now() + days * 24 * 60 * 60 * 1000);
  return new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
}

/**
 * Dr. Alvarez (PHY20001) registers a new client whose sample comes with a check; returns their
 * Client ID. `run` (letters and digits) makes the submission's key and the billing e-mail this
 * run's own. `dob` (MM/DD/YYYY) defaults to an adult's; a newborn's makes a newborn client.
 */
export async function newClientByCheck(
  browser: Browser,
  person: { first: string; last: string; email: string; dob?: string },
  run: string,
) {
  const context = await browser.newContext();
  const request = context.request;
  const login = await request.post('/api/pay/physician_login', {
    data: { username: 'PHY20001', password: 'DemoPhysician#2026' },
  });
  expect(login.status(), await login.text()).toBe(200);
  const sent = await request.post('/api/pay/send_ProcessData', {
    headers: { 'idempotency-key': `new-client-${run}` },
    data: {
      FirstName: person.first,
      LastName: person.last,
      Dob: person.dob ?? '05/17/1981',
      Ship_date: usDate(5),
      Email: person.email,
      PhoneNumber: '3055550100',
      Address: '200 Biscayne Boulevard',
      City: 'Miami',
      State: 'FL',
      zipcode: '33131',
      Country: 'United States',
      Tissue: 'Bone_marrow',
      CreditCard: false,
      BillingName: 'Clinic Accounts',
      BillingEmail: `accounts.${run}@clinic.example.com`,
    },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const { ClientId } = (await sent.json()) as { ClientId: string };
  await context.close();
  return ClientId;
}

/** The new client sets a password from the welcome e-mail (sent since `since`): their signed-in page. */
export async function setPasswordFromWelcome(
  browser: Browser,
  email: string,
  password: string,
  since: number,
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const welcome = await waitForMail(email, /welcome/i, since);
  const link = /https?:\/\/\S+\/welcome\/[A-Za-z0-9_-]+/.exec(welcome.text)?.[0];
  if (!link) throw new Error('no welcome link in the e-mail');
  await page.goto(new URL(link).pathname);
  await page.getByRole('textbox', { name: 'New Password' }).fill(password);
  await page.getByRole('textbox', { name: 'Confirm Password' }).fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Client Information', level: 1 })).toBeVisible({
    timeout: 30_000,
  });
  return page;
}
