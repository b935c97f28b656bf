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
    ...(receipt.feeCents > 0
      ? [{ label: 'Card processing fee (3%)', value: formatUsd(receipt.feeCents) }]
      : []),
    { label: 'Total charged', value: formatUsd(receipt.totalCents) },
    { label: 'Paid with', value: receipt.method },
    { label: 'Transaction number', value: receipt.transactionId },
  ];
}
