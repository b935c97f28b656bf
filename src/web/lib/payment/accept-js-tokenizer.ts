import { digitsOf } from '../../../domain/payments';
import { type CardTokenizer, type PaymentToken, TokenizeError } from './card-tokenizer-port';
import type { PaymentConfig } from './payment-config';

interface AcceptResponse {
  opaqueData?: { dataDescriptor: string; dataValue: string };
  messages: { resultCode: 'Ok' | 'Error'; message: Array<{ code: string; text: string }> };
}

declare global {
  interface Window {
    Accept?: { dispatchData(data: unknown, callback: (response: AcceptResponse) => void): void };
  }
}

let loading: Promise<void> | null = null;

/** Loads Accept.js once, and only on the screens that take payment details. */
function loadAcceptJs(url: string): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = null;
      reject(
        new TokenizeError('The payment service could not be reached. Please try again in a few minutes.'),
      );
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Authorize.Net: the browser sends the numbers to Accept.js and gets a single-use nonce back. */
export function acceptJsTokenizer(
  config: Extract<PaymentConfig, { gateway: 'authorize-net' }>,
): CardTokenizer {
  async function dispatch(data: Record<string, unknown>): Promise<PaymentToken> {
    await loadAcceptJs(config.acceptJsUrl);
    const accept = window.Accept;
    if (!accept)
      throw new TokenizeError('The payment service could not be reached. Please try again in a few minutes.');
    return new Promise((resolve, reject) => {
      accept.dispatchData(
        { authData: { clientKey: config.clientKey, apiLoginID: config.apiLoginId }, ...data },
        (response) => {
          if (response.messages.resultCode === 'Ok' && response.opaqueData) {
            resolve({ descriptor: response.opaqueData.dataDescriptor, value: response.opaqueData.dataValue });
          } else {
            reject(
              new TokenizeError(
                response.messages.message[0]?.text ?? 'The payment details were not accepted.',
              ),
            );
          }
        },
      );
    });
  }
  return {
    tokenizeCard: (card) =>
      dispatch({
        cardData: {
          cardNumber: digitsOf(card.Credit_Card_Number),
          month: card.Month_of_Expiry,
          year: card.Year_of_Expiry,
          cardCode: card.CVV,
          zip: card.Credit_Card_Billing_Zip_Code,
          fullName: `${card.Credit_Card_Holder_First_Name} ${card.Credit_Card_Holder_Last_Name}`,
        },
      }),
    tokenizeBank: (bank) =>
      dispatch({
        bankData: {
          accountNumber: bank.Account_Number,
          routingNumber: bank.ABA_Routing_Number,
          nameOnAccount: bank.Name_On_Account,
          accountType: 'checking',
        },
      }),
  };
}
