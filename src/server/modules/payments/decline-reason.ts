import { HttpError } from '../../lib/http-error';
import { PaymentRefused } from './ledger';

/**
 * The gateway's reason when a charge that took nothing was declined, a try that counts for
 * retries and dunning; null when it did not count (the gateway unreachable, a try cut short).
 */
export function declineReasonOf(error: unknown): string | null {
  if (error instanceof PaymentRefused) return error.reason === 'gateway_unavailable' ? null : error.reason;
  return error instanceof HttpError && error.code === 'PAYMENT_DECLINED' ? 'unknown' : null;
}
