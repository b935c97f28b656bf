import type { CarrierAdapter } from './adapters/carrier/carrier-adapter';
import type { Mailer } from './adapters/mailer';
import type { PaymentConfig } from './adapters/payments';
import type { PaymentGateway } from './adapters/payments/payment-gateway';
import type { SmsSender } from './adapters/sms/sms-adapter';
import type { Config } from './config';
import type { Database } from './db/client';
import type { Clock } from './lib/clock';
import type { SessionService } from './plugins/sessions';

/**
 * What the app is built with, handed to routes, services and jobs. It lives apart from app.ts, the
 * composition root, so that the modules app.ts assembles never import it back.
 */
export interface AppDeps {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  sessions: SessionService;
  gateway: PaymentGateway;
  /** Address validation and shipping quotes (FedEx, or the offline table). */
  carrier: CarrierAdapter;
  sms: SmsSender;
  paymentConfig: PaymentConfig;
  linkSecret: Buffer;
  documentsKey: Buffer;
  /** The run-once lease (config.leaseMs), where services expect it. */
  leaseMs: number;
}
