import { expect, type Page } from '@playwright/test';
import { todayFor } from '../../src/domain/client';
import { validTuesday } from '../../src/server/testing/dates';
import { vialRequestBody } from '../../src/server/testing/vial-request-body';

/**
 * A vial request placed through the API as the signed-in client's own page would (a journey's
 * set-up; the form itself is walked in stem-cell-request.spec.ts): FedEx to the Hudson clinic in
 * New York four weeks out, paid with the card on file.
 */
export async function orderVials(
  page: Page,
  overrides: Record<string, unknown>,
): Promise<{ id: string; totalCents: number }> {
  const answer = await page.request.post('/api/pay/send_CellRequest', {
    headers: {
      origin: new URL(page.url()).origin,
      'x-portal-client': 'web',
      'idempotency-key': crypto.randomUUID(),
    },
    data: vialRequestBody({ ShipmentDate: validTuesday(todayFor(new Date()), 28), ...overrides }),
  });
  expect(answer.ok(), await answer.text()).toBe(true);
  const body = (await answer.json()) as { id: string; amountChargedCents: number };
  return { id: body.id, totalCents: body.amountChargedCents };
}
