import type { AchForm, CardForm } from '../../../domain/payments';

/** A one-time token for the server; the numbers themselves went only to the gateway. */
export interface PaymentToken {
  descriptor: string;
  value: string;
}

/** The browser half of the payment gateway port (DESIGN.md section 5). */
export interface CardTokenizer {
  tokenizeCard(card: CardForm): Promise<PaymentToken>;
  tokenizeBank(bank: AchForm): Promise<PaymentToken>;
}

export class TokenizeError extends Error {}
