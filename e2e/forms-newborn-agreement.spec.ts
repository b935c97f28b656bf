import { expect, test } from '@playwright/test';
import { formatUsd } from '../src/domain/money';
import { newbornAgreementMessages as m, monthlyPaymentCents } from '../src/domain/newborn-agreement';
import { DEMO_NEWBORN_AGREEMENT_ID, DEMO_NEWBORN_FIGURES as f } from '../src/server/db/seed-newborn';
import { createAgreementLinkToken } from '../src/server/lib/link-tokens';
import { countRequests, drawSignature, expectSignedPdf } from './support/forms';
import { waitForMail } from './support/mail';
import { expectAccessible, expectNoSidewaysScroll } from './support/portal';

// The e2e server signs links with this key (playwright.config.ts sets LINK_SECRET).
const E2E_LINK_SECRET = 'e2e-link-secret-with-at-least-32-characters';

/**
 * The newborn finance agreement (spec 3; issue 10): Linh Nguyen, the main contact of Mia Nguyen
 * (ACT10020, seeded for this journey alone), opens the link sent to her, reads the plan, signs it
 * on her phone and receives the signed PDF; the link then shows the agreement completed.
 */
test('the newborn finance agreement is signed once from its link, and the signed PDF is e-mailed', async ({
  page,
}) => {
  const monthly = formatUsd(
    monthlyPaymentCents(f.totalFinancedCents, f.interestRateBasisPoints, f.installments),
  );
  expect(monthly).toBe('$229.80');

  // No link, or a link not made by the bank: nothing is shown.
  await page.goto('/newbornfinanceagreement');
  await expect(page.getByRole('heading', { name: 'Newborn Finance Agreement', level: 1 })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(m.invalidClient);
  const link = createAgreementLinkToken(
    Buffer.from(E2E_LINK_SECRET, 'utf8'),
    DEMO_NEWBORN_AGREEMENT_ID,
    new Date(),
  );
  await page.goto(`/newbornfinanceagreement/${link.slice(0, -2)}xx`);
  await expect(page.getByRole('alert')).toHaveText(m.invalidClient);
  await expect(page.getByText('Linh Nguyen')).toHaveCount(0);

  await page.goto(`/newbornfinanceagreement/${link}`);
  const figures = page.getByRole('table');
  for (const [label, value] of [
    ['Main contact', 'Linh Nguyen'],
    ['Patient ID', 'ACT10020'],
    ['Annual banking fee', '$175.00'],
    ['Bio-Insurance fee', '$250.00'],
    ['Down payment', '$250.00'],
    ['Initial processing fee', '$2,495.00'],
    ['Interest rate', '6.00%'],
    ['Number of installments', '12'],
    ['Total amount financed', '$2,670.00'],
    ['Monthly payment', monthly],
  ]) {
    await expect(figures.getByRole('row', { name: `${label} ${value}` })).toBeVisible();
  }
  await expect(page.getByText('An initial non-refundable deposit of $250 is due at signup.')).toBeVisible();
  await expect(page.getByText('Payments made by credit card add a 3% card processing fee.')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await expectAccessible(page);

  // On a phone: no sideways scrolling; Submit without a confirmed signature is refused.
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(m.signature)).toBeVisible();
  await drawSignature(page);
  await page.getByRole('button', { name: 'Click to Confirm Signature' }).click();
  await expect(page.getByText(m.signatureAccepted)).toBeVisible();
  await expect(page.getByText(m.signature)).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/newborn-agreement-375.png', fullPage: true });

  const since = Date.now();
  const posts = countRequests(page, 'set_Client_Agreement_service');
  await page.getByRole('button', { name: 'Submit' }).dblclick();
  await expect(page.getByText(m.completed)).toBeVisible();
  expect(posts()).toBe(1);
  await expectNoSidewaysScroll(page);

  // The signed copy, e-mailed to the main contact: the plan's figures, the terms, the signature
  // and the certificate page.
  const mail = await waitForMail('linh.nguyen@example.com', /Newborn Finance Agreement/, since);
  expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
    ['Newborn finance agreement ACT10020.pdf', 'application/pdf'],
  ]);
  await expectSignedPdf(mail.attachments[0]?.content as Buffer, [
    'Newborn Finance Agreement',
    'Linh Nguyen',
    'ACT10020',
    '$2,495.00',
    '$2,670.00',
    `Monthly payment`,
    monthly,
    'non-refundable deposit of $250',
    'late charge of $50',
  ]);

  // A second visit of the link: the agreement is completed, and cannot be signed again.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/newbornfinanceagreement/${link}`);
  await expect(page.getByText(m.completed)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Submit' })).toHaveCount(0);
  await expectAccessible(page);
  const again = await page.request.post('/api/pay/set_Client_Agreement_service', {
    headers: { origin: new URL(page.url()).origin },
    data: { ClientId: link, signatureData: 'data:image/png;base64,iVBORw0KGgo=', NBAgreementCompleted: true },
  });
  expect(again.status()).toBe(409);
});
