/**
 * The card and bank numbers the journeys type, from the sandbox gateway's documented test numbers
 * (src/server/adapters/payments/sandbox-gateway.ts). Kept in one place so that the scan after the
 * journeys looks for every one of them.
 */
export const testCards = {
  visa: '4242424242424242',
  otherVisa: '4111111111111111',
  failsLuhn: '4242424242424241',
  mastercard: '5555555555554444',
  amex: '378282246310005',
  declinedForInsufficientFunds: '4000000000009995',
} as const;

export const testBankAccount = {
  accountNumber: '000123456789',
  routingNumber: '110000000',
  /** Fails the ABA checksum. */
  badRoutingNumber: '123456789',
} as const;

/** Full numbers that must never be kept by the portal. Routing numbers are public; CVVs too short to find. */
export const secretTestNumbers: readonly string[] = [
  ...Object.values(testCards),
  testBankAccount.accountNumber,
];
