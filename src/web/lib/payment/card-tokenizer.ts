import { acceptJsTokenizer } from './accept-js-tokenizer';
import type { CardTokenizer } from './card-tokenizer-port';
import type { PaymentConfig } from './payment-config';
import { sandboxTokenizer } from './sandbox-tokenizer';

// The port lives in a file of its own so the tokenizers can implement it without importing this one.
export { type CardTokenizer, type PaymentToken, TokenizeError } from './card-tokenizer-port';

export function tokenizerFor(config: PaymentConfig): CardTokenizer {
  return config.gateway === 'sandbox' ? sandboxTokenizer(config.tokenizeUrl) : acceptJsTokenizer(config);
}
