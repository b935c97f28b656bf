/**
 * The payment gateway port (DESIGN.md section 5). The server never sees a card number, CVV or
 * bank account number: the browser hands them to the gateway's tokenizer and the server receives
 * a one-time token, which it exchanges here for a stored payment profile, and charges later.
 * Amounts are integer cents; adapters convert at their edge.
 */

/** A one-time token from the browser tokenizer (sandbox token, or Accept.js opaqueData). */
export interface PaymentToken {
  descriptor: string;
  value: string;
}

export type PaymentMethodKind = 'card' | 'ach';

export type DeclineReason =
  | 'generic_decline'
  | 'insufficient_funds'
  | 'lost_card'
  | 'stolen_card'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'incorrect_zip'
  | 'invalid_number'
  | 'processing_error'
  | 'duplicate'
  | 'ach_account_closed'
  | 'ach_no_account'
  | 'ach_insufficient_funds'
  | 'invalid_token'
  | 'gateway_unavailable';

export interface BillTo {
  firstName: string;
  lastName: string;
  /** Street, city and state: Authorize.Net's liveMode validation of a Visa needs them (AVS). */
  address?: string;
  city?: string;
  state?: string;
  zip?: string;
  country?: string;
}

export interface SaveMethodRequest {
  /** The gateway customer profile of this client, when one exists already. */
  customerRef: string | null;
  /** Our client id as the gateway's merchant customer id (at most 20 characters). */
  merchantCustomerId: string;
  email: string;
  kind: PaymentMethodKind;
  token: PaymentToken;
  billTo?: BillTo;
}

/** What the gateway reports of the stored method: references and display data only. */
export interface SavedMethod {
  customerRef: string;
  paymentRef: string;
  kind: PaymentMethodKind;
  brand: string | null;
  last4: string;
  expiryMonth: number | null;
  expiryYear: number | null;
}

export type SaveMethodResult =
  | { outcome: 'saved'; method: SavedMethod }
  | { outcome: 'declined' | 'error'; reason: DeclineReason; message: string };

export interface ChargeRequest {
  customerRef: string;
  paymentRef: string;
  amountCents: number;
  /**
   * Our reference for this charge (at most 20 characters, letters and digits), committed in the
   * ledger before the gateway is called and sent as its invoice number: lookupCharge finds the
   * charge again by it after a crash, a timeout or a lost connection.
   */
  reference: string;
  description: string;
}

/**
 * What the gateway knows of a charge we may have sent (reconciliation). `approved`: money was
 * taken; `failed`: declined or voided, nothing taken; `not_found`: the gateway never saw it;
 * `pending`: held for review, still in doubt; `returned`: an ACH debit came back after it
 * settled; `unavailable`: the gateway could not be asked now (try again later).
 */
export type ChargeLookup =
  | { status: 'approved'; transactionId: string; amountCents: number }
  | { status: 'failed'; transactionId: string | null }
  | { status: 'not_found' }
  | { status: 'pending'; transactionId: string }
  | { status: 'returned'; transactionId: string }
  | { status: 'unavailable'; message: string };

export interface ChargeLookupRequest {
  customerRef: string;
  reference: string;
}

export type ChargeResult =
  | { outcome: 'approved'; transactionId: string; authCode: string | null }
  | { outcome: 'declined' | 'error'; reason: DeclineReason; message: string; transactionId: string | null };

export interface PaymentGateway {
  readonly name: 'sandbox' | 'authorize-net';
  saveMethod(request: SaveMethodRequest): Promise<SaveMethodResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Finds a charge by our reference, for reconciliation of charges whose outcome we did not record. */
  lookupCharge(request: ChargeLookupRequest): Promise<ChargeLookup>;
  /**
   * How long after a charge was sent a `not_found` still means "maybe not yet": a request cut off
   * in flight may reach the gateway's records late. Absent: two minutes.
   */
  readonly notFoundGraceMs?: number;
}

/** The sentence a client reads for each reason (shown in red on the payment screens). */
export const declineMessages: Record<DeclineReason, string> = {
  generic_decline: 'Your card was declined. Please use another card or contact your bank.',
  insufficient_funds: 'The payment was declined for insufficient funds. Please use another card or account.',
  lost_card: 'Your card was declined. Please use another card or contact your bank.',
  stolen_card: 'Your card was declined. Please use another card or contact your bank.',
  expired_card: 'The card has expired. Please use another card.',
  incorrect_cvc: 'The CVV code was not accepted. Please check it and try again.',
  incorrect_zip: 'The billing zip code was not accepted. Please check it and try again.',
  invalid_number: 'Invalid credit card number.',
  processing_error: 'The payment could not be processed. Please try again in a few minutes.',
  duplicate: 'This payment was already submitted.',
  ach_account_closed: 'The bank account is closed. Please use another account.',
  ach_no_account: 'The bank account was not found. Please check the account and routing numbers.',
  ach_insufficient_funds:
    'The payment was declined for insufficient funds. Please use another card or account.',
  invalid_token: 'The payment details expired before they were saved. Please enter them again.',
  gateway_unavailable: 'The payment service could not be reached. Please try again in a few minutes.',
};
