import { CARD_NUMBER_IN_TEXT, containsCardNumber } from '../../domain/card-number-text';
import { FORBIDDEN_PAYMENT_FIELDS } from '../../domain/payment-info';
import { HttpError } from './http-error';
import { requestStrings } from './request-strings';

// The gateway's one-time token is opaque: its bytes are not text a person typed.
const OPAQUE_KEYS = new Set(['token']);
// Signature PNGs and lab report PDFs come as base64 data URLs.
const DATA_URL = /^data:[\w.+-]+\/[\w.+-]+;base64,/;

/**
 * Refuses a body or query that carries a card number, CVV or account number, before anything else
 * reads it: a field named like one at any depth (`{ "card": { "number": … } }` included), or
 * card-number-shaped text in any string (a name, an address, a list of medications). app.ts
 * applies it to every API call, so no route can take one by mistake.
 */
export function refuseRawPaymentNumbers(...parts: unknown[]) {
  for (const part of parts) {
    for (const item of requestStrings(part, OPAQUE_KEYS)) {
      if (item.isKey && isPaymentNumberField(item.key, item.value)) {
        throw new HttpError(
          'FORBIDDEN_FIELD',
          'Card and bank account numbers are never sent to the portal. Please use the payment form.',
          { [item.field]: 'Not accepted' },
        );
      }
      if (item.isKey || item.inOpaque || DATA_URL.test(item.value)) continue;
      if (containsCardNumber(item.value)) {
        throw new HttpError('FORBIDDEN_FIELD', CARD_NUMBER_IN_TEXT, {
          [item.field]: CARD_NUMBER_IN_TEXT,
        });
      }
    }
  }
}

/** `Credit_Card_Number`, `cvv`, or `number` inside `card` (`card_number`), at any depth. */
function isPaymentNumberField(parent: string | undefined, key: string): boolean {
  return (
    FORBIDDEN_PAYMENT_FIELDS.test(key) ||
    (parent !== undefined && FORBIDDEN_PAYMENT_FIELDS.test(`${parent}_${key}`))
  );
}
