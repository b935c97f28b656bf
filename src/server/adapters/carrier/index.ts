import type { Config } from '../../config';
import type { CarrierAdapter } from './carrier-adapter';
import { createFedExCarrier } from './fedex-carrier';
import { createOfflineCarrier } from './offline-carrier';

export const FEDEX_BASE_URLS = {
  sandbox: 'https://apis-sandbox.fedex.com',
  production: 'https://apis.fedex.com',
} as const;

export function createCarrier(config: Config): CarrierAdapter {
  const carrier = config.carrier;
  if (carrier.kind === 'fedex') {
    return createFedExCarrier({
      baseUrl: carrier.baseUrl,
      clientId: carrier.clientId,
      clientSecret: carrier.clientSecret,
      accountNumber: carrier.accountNumber,
      senderPhone: carrier.senderPhone,
    });
  }
  return createOfflineCarrier({ hourMs: carrier.hourMs });
}
