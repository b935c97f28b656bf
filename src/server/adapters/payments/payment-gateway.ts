import type { DeclineReason } from '../../../domain/storage-billing';

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

export type { DeclineReason };

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

export interface RefundRequest {
  /** The gateway's id of the approved charge to refund: the money goes back to what it was charged to. */
  chargeTransactionId: string;
  /** The customer profile the charge was made under; a charge of another customer is not refunded. */
  customerRef: string;
  /** Whole or part of what is left of the charge after its earlier refunds. */
  amountCents: number;
  /**
   * Our reference for this refund (at most 20 characters, letters and digits), committed in the
   * ledger before the gateway is called and sent as its invoice number: lookupRefund finds the
   * refund again by it after a crash, a timeout or a lost connection. A retry with the same
   * reference answers the first refund's outcome and moves no money.
   */
  reference: string;
  description: string;
}

/**
 * Why the gateway refuses a refund or a void, as the service decides it (each has the sentence staff
 * read, in refundMessages). `not_settled`: the charge is still in the open batch, so it can only be
 * voided (whole) until the batch cut-off; `exceeds_charge`: more than is left of the charge after
 * its earlier refunds; `not_refundable`: voided, declined, returned or unknown to the gateway, or
 * another customer's; `duplicate`: the reference was used for a refund that was since voided;
 * `settled`: the batch has settled, so the charge can only be refunded now; `not_voidable`: declined,
 * returned or unknown to the gateway.
 */
export type RefundRefusal = 'not_settled' | 'exceeds_charge' | 'not_refundable' | 'duplicate';
export type VoidRefusal = 'settled' | 'not_voidable';
export type GatewayFailure = 'processing_error' | 'gateway_unavailable';

export type RefundResult =
  | { outcome: 'refunded'; transactionId: string }
  | { outcome: 'declined'; reason: RefundRefusal; message: string }
  | { outcome: 'error'; reason: GatewayFailure; message: string; transactionId: string | null };

export interface VoidRequest {
  /** A charge, or a refund, still in the open batch: voided whole, nothing moves. */
  transactionId: string;
}

/** A void is idempotent, as at the service: voiding a voided transaction answers `voided` again. */
export type VoidResult =
  | { outcome: 'voided'; transactionId: string }
  | { outcome: 'declined'; reason: VoidRefusal; message: string }
  | { outcome: 'error'; reason: GatewayFailure; message: string };

export interface RefundLookupRequest {
  customerRef: string;
  chargeTransactionId: string;
  reference: string;
}

/**
 * What the gateway knows of a refund we may have sent (reconciliation, as ChargeLookup for charges).
 * `refunded`: the money goes back (pending settlement or settled); `failed`: refused or voided,
 * nothing went back; `not_found`: the gateway never saw it; `unavailable`: it could not be asked now.
 */
export type RefundLookup =
  | { status: 'refunded'; transactionId: string; amountCents: number }
  | { status: 'failed'; transactionId: string | null }
  | { status: 'not_found' }
  | { status: 'unavailable'; message: string };

export interface PaymentGateway {
  readonly name: 'sandbox' | 'authorize-net';
  saveMethod(request: SaveMethodRequest): Promise<SaveMethodResult>;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Finds a charge by our reference, for reconciliation of charges whose outcome we did not record. */
  lookupCharge(request: ChargeLookupRequest): Promise<ChargeLookup>;
  /** Gives back all or part of a settled charge, never more in total than was charged. */
  refund(request: RefundRequest): Promise<RefundResult>;
  /** Cancels a charge or a refund before its batch settles: nothing is moved at all. */
  void(request: VoidRequest): Promise<VoidResult>;
  /** Finds a refund by our reference, for reconciliation of refunds whose outcome we did not record. */
  lookupRefund(request: RefundLookupRequest): Promise<RefundLookup>;
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
  billing_address_required:
    "The card's billing address is incomplete. Please enter the street, city, state and zip code of the card's billing address.",
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

/** The sentence staff read for each refused or failed refund or void. */
export const refundMessages: Record<RefundRefusal | VoidRefusal | GatewayFailure, string> = {
  not_settled:
    'The charge has not settled yet: void it before the batch cut-off, or refund it once it has settled.',
  exceeds_charge: 'The refund is more than what is left of the charge after its earlier refunds.',
  not_refundable: 'The gateway cannot refund this charge: it was voided, declined or returned.',
  duplicate: 'This refund was already submitted and then voided. Use a new reference to refund again.',
  settled: 'The transaction has settled and can no longer be voided. Refund it instead.',
  not_voidable: 'The gateway cannot void this transaction: it was declined, returned or never made.',
  processing_error: 'The payment service could not process the request. Please try again in a few minutes.',
  gateway_unavailable: 'The payment service could not be reached. Please try again in a few minutes.',
};
