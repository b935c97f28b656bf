import { digitsOf } from '../../../domain/payments';
import { type CardTokenizer, type PaymentToken, TokenizeError } from './card-tokenizer-port';

/** Sends the numbers to the built-in sandbox gateway's tokenizer, as Accept.js would to Authorize.Net. */
export function sandboxTokenizer(tokenizeUrl: string): CardTokenizer {
  async function tokenize(payload: unknown): Promise<PaymentToken> {
    let response: Response;
    try {
      response = await fetch(tokenizeUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
    } catch {
      throw new TokenizeError('The payment service could not be reached. Please try again in a few minutes.');
    }
    const body = (await response.json().catch(() => ({}))) as { token?: PaymentToken; error?: string };
    if (!response.ok || !body.token)
      throw new TokenizeError(body.error ?? 'The payment details were not accepted.');
    return body.token;
  }
  return {
    tokenizeCard: (card) =>
      tokenize({
        card: {
          number: digitsOf(card.Credit_Card_Number),
          cvv: card.CVV,
          expiryMonth: Number(card.Month_of_Expiry),
          expiryYear: Number(card.Year_of_Expiry),
          zip: card.Credit_Card_Billing_Zip_Code,
        },
      }),
    tokenizeBank: (bank) =>
      tokenize({
        bank: {
          routingNumber: bank.ABA_Routing_Number,
          accountNumber: bank.Account_Number,
          nameOnAccount: bank.Name_On_Account,
        },
      }),
  };
}
