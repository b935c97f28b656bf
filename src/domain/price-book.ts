import type { Cents } from './money';

/**
 * The constants of spec section 9 that the account area uses. Staff will be able to change
 * prices later; until then this is the seeded book the server computes from.
 */
export const priceBook = {
  annualMaintenanceFee: 33_981 satisfies Cents,
  retrievalFeePerVial: 50_000 satisfies Cents,
  cardProcessingFeeBasisPoints: 300,
} as const;
