import { expect } from 'vitest';
import type { TestApp } from './test-app';

export type GatewayToken = { descriptor: string; value: string };

/** A card tokenized by the sandbox gateway's browser tokenizer, as a payment page would. */
export async function tokenizeCard(
  t: TestApp,
  number: string,
  overrides: Record<string, unknown> = {},
): Promise<GatewayToken> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sandbox-gateway/v1/tokens',
    payload: {
      card: {
        number,
        cvv: '123',
        expiryMonth: 12,
        expiryYear: t.clock.now().getUTCFullYear() + 3,
        zip: '33131',
        ...overrides,
      },
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().token as GatewayToken;
}

/** A bank account tokenized the same way. */
export async function tokenizeBank(
  t: TestApp,
  accountNumber = '000123456789',
  routingNumber = '110000000',
): Promise<GatewayToken> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/sandbox-gateway/v1/tokens',
    payload: { bank: { routingNumber, accountNumber, nameOnAccount: 'Test Client' } },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().token as GatewayToken;
}
