import { HttpError } from './http-error';

/** The cents of a dollar amount a page sent, or undefined when it sent none. */
export function centsOf(dollars: number | undefined): number | undefined {
  return dollars === undefined ? undefined : Math.round(dollars * 100);
}

/**
 * The amounts a page showed must be the server's: each pair is what the page sent (if it sent it)
 * and what the server computed. A forged or stale amount answers 409 with `message`, before
 * anything is charged.
 */
export function refuseChangedAmounts(
  pairs: ReadonlyArray<readonly [sent: number | undefined, server: number]>,
  message: string,
): void {
  if (pairs.some(([sent, server]) => sent !== undefined && sent !== server)) {
    throw new HttpError('AMOUNT_CHANGED', message);
  }
}

/** The order pages' rule: the total shown (in cents, or as `amount` in dollars) is the server's. */
export function refuseChangedOrderTotal(
  body: { expectedTotalCents?: number; amount?: number },
  totalCents: number,
  message: string,
): void {
  refuseChangedAmounts(
    [
      [body.expectedTotalCents, totalCents],
      [centsOf(body.amount), totalCents],
    ],
    message,
  );
}
