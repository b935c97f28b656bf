import type { Cents } from './money';

/**
 * The constants of spec section 9 that the account area uses. Staff will be able to change
 * prices later; until then this is the seeded book the server computes from.
 */
export const priceBook = {
  annualMaintenanceFee: 33_981 satisfies Cents,
  /** The later yearly amount quoted for card or check payers (ACH pays the maintenance fee itself). */
  annualFeeCardOrCheck: 35_000 satisfies Cents,
  retrievalFeePerVial: 50_000 satisfies Cents,
  cardProcessingFeeBasisPoints: 300,
  upFrontBankingFee: { adipose: 250_000 satisfies Cents, boneMarrow: 300_000 satisfies Cents },
  whiteGloveLabFee: 39_900 satisfies Cents,
} as const;
