import type { z } from 'zod';
import type { paymentConfigSchema } from '../../../domain/payment-info';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createAuthorizeNetGateway } from './authorize-net-gateway';
import type { PaymentGateway } from './payment-gateway';
import { createSandboxGateway } from './sandbox-gateway';

/** Where the sandbox gateway's tokenizer is mounted, apart from the portal's own API. */
export const SANDBOX_GATEWAY_PREFIX = '/sandbox-gateway';

const ANET_ENDPOINTS = {
  sandbox: {
    api: 'https://apitest.authorize.net/xml/v1/request.api',
    acceptJs: 'https://jstest.authorize.net/v1/Accept.js',
  },
  production: {
    api: 'https://api.authorize.net/xml/v1/request.api',
    acceptJs: 'https://js.authorize.net/v1/Accept.js',
  },
} as const;

export type PaymentConfig = z.infer<typeof paymentConfigSchema>;

export function createPaymentGateway(config: Config, db: Database, clock: Clock): PaymentGateway {
  const payments = config.payments;
  if (payments.gateway === 'authorize-net') {
    return createAuthorizeNetGateway({
      apiLoginId: payments.apiLoginId,
      transactionKey: payments.transactionKey,
      endpoint: ANET_ENDPOINTS[payments.environment].api,
      clock,
    });
  }
  return createSandboxGateway(db, clock);
}

/** What the browser needs to tokenize: public settings only, never the transaction key. */
export function paymentConfigFor(config: Config): PaymentConfig {
  const payments = config.payments;
  if (payments.gateway === 'authorize-net') {
    return {
      gateway: 'authorize-net',
      acceptJsUrl: ANET_ENDPOINTS[payments.environment].acceptJs,
      apiLoginId: payments.apiLoginId,
      clientKey: payments.clientKey,
    };
  }
  return { gateway: 'sandbox', tokenizeUrl: `${SANDBOX_GATEWAY_PREFIX}/v1/tokens` };
}
