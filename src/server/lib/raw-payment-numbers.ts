import { FORBIDDEN_PAYMENT_FIELDS } from '../../domain/payment-info';
import { HttpError } from './http-error';

/**
 * Refuses a body that carries a card number, CVV or account number, before anything else reads
 * it: app.ts applies it to every API call, so no route can take one by mistake.
 */
export function refuseRawPaymentNumbers(body: unknown) {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const field = Object.keys(body).find((key) => FORBIDDEN_PAYMENT_FIELDS.test(key));
    if (field) {
      throw new HttpError(
        400,
        'FORBIDDEN_FIELD',
        'Card and bank account numbers are never sent to the portal. Please use the payment form.',
        { [field]: 'Not accepted' },
      );
    }
  }
}
