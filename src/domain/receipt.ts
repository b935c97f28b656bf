import { formatUsd } from './money';

/** What a payment paid for, in the words its receipt uses; the ledger keeps a short code. */
const PURPOSES: Record<string, string> = {
  annual_storage_overdue: 'Annual storage fees (overdue years)',
  annual_storage_renewal: 'Annual storage renewal',
  white_glove_lab: 'White Glove Labs infectious disease screening',
  initial_processing: 'Initial sample processing',
  vial_request: 'Stem cell vials shipped to a clinic',
  storage_plan: 'Banking and storage plans',
  store_order: 'Store order: Stem Cell Face Serum',
};

export function paymentPurposeLabel(purpose: string): string {
  return PURPOSES[purpose] ?? 'Payment';
}

/** A receipt as the PDF lays it out: every line drawn from the ledger row, nothing recomputed. */
export interface Receipt {
  clientName: string;
  clientActId: string;
  paidOn: string;
  description: string;
  amountCents: number;
  feeCents: number;
  totalCents: number;
  method: string;
  transactionId: string;
}

/** The label and value lines of a receipt, in order. */
export function receiptLines(receipt: Receipt): { label: string; value: string }[] {
  return [
    { label: 'Client', value: `${receipt.clientName} (Client ID ${receipt.clientActId})` },
    { label: 'Date paid', value: receipt.paidOn },
    { label: 'For', value: receipt.description },
    { label: 'Amount', value: formatUsd(receipt.amountCents) },
    // The fee as charged: the ledger keeps its amount, not the rate of the book it was priced by.
    ...(receipt.feeCents > 0 ? [{ label: 'Card processing fee', value: formatUsd(receipt.feeCents) }] : []),
    { label: 'Total charged', value: formatUsd(receipt.totalCents) },
    { label: 'Paid with', value: receipt.method },
    { label: 'Transaction number', value: receipt.transactionId },
  ];
}

/**
 * A refund's or void's receipt, drawn from its ledger row and its charge's. The method is its
 * brand and last 4 only. The reason is printed when the bank's policy wrote it (a cancellation's
 * terms); a staff member's own reason is a note for staff and is not (null here).
 */
export interface RefundReceipt {
  kind: 'refund' | 'void';
  clientName: string;
  clientActId: string;
  /** The day it was refunded or voided (MM/DD/YYYY). */
  refundedOn: string;
  amountCents: number;
  payment: { paidOn: string; description: string; totalCents: number; transactionId: string };
  method: string;
  transactionId: string;
  reference: string;
  reason: string | null;
}

/** The label and value lines of a refund's receipt, in order. */
export function refundReceiptLines(receipt: RefundReceipt): { label: string; value: string }[] {
  const voided = receipt.kind === 'void';
  const { payment } = receipt;
  return [
    { label: 'Client', value: `${receipt.clientName} (Client ID ${receipt.clientActId})` },
    { label: voided ? 'Date voided' : 'Date refunded', value: receipt.refundedOn },
    { label: voided ? 'Amount voided' : 'Amount refunded', value: formatUsd(receipt.amountCents) },
    { label: 'Of the payment', value: `${formatUsd(payment.totalCents)} paid on ${payment.paidOn}` },
    { label: 'For', value: payment.description },
    { label: 'Payment transaction number', value: payment.transactionId },
    { label: voided ? 'Paid with' : 'Refunded to', value: receipt.method },
    ...(voided ? [] : [{ label: 'Refund transaction number', value: receipt.transactionId }]),
    { label: 'Reference', value: receipt.reference },
    ...(receipt.reason ? [{ label: 'Reason', value: receipt.reason }] : []),
  ];
}

/** The sentence under a refund's receipt: when the money arrives, or that none moved. */
export function refundReceiptNote(receipt: Pick<RefundReceipt, 'kind'>): string {
  return receipt.kind === 'void'
    ? 'The payment was voided before it settled: nothing was taken from the account.'
    : 'The refund reaches the account in 5 to 10 business days.';
}
