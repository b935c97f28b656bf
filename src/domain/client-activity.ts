import { z } from 'zod';
import { isoToUsDate } from './dates';
import { formatUsd } from './money';

/** One activity record as the server answers it (spec 1, section 3). */
export const clientActivityRecordSchema = z.object({
  Id: z.string(),
  ClientId: z.string(),
  ClientName: z.string(),
  Dose_Amount: z.number().int().nullable(),
  CloseDate: z.string().nullable().describe('YYYY-MM-DD'),
  Type: z.string(),
  Purchased_Plan_Name: z.string().nullable(),
  StageName: z.string().nullable(),
  Cell_Request_Approved_By_Practitioner: z.boolean().nullable(),
  Amount: z.string().nullable().describe('What the row cost, in dollars ("2575.00"), when it records one'),
  CellRequestId: z
    .string()
    .nullable()
    .describe('The vial request the row records, whose page is /stem-cell-request/:id')
    .optional(),
  ReceiptId: z
    .string()
    .nullable()
    .describe(
      'The payment or refund whose receipt PDF is at /api/pay/receipts/:id, when the row records a payment or a refund',
    ),
});

export type ClientActivityRecord = z.infer<typeof clientActivityRecordSchema>;

export const getClientActivityResponseSchema = z.object({
  result: z.array(clientActivityRecordSchema),
});

/** Dose Retrieval Fee rows closed after this date carry the practitioner's approval. */
export const PRACTITIONER_APPROVAL_SINCE = '2021-12-01';

export const NOT_APPLICABLE = 'NA';

/**
 * The practitioner's approval as a tick or a cross (spec 1, section 3), except that a request
 * still waiting for it reads "pending": a cross is red, and red is kept for a problem (issue 24).
 */
export type ApprovalMark = 'approved' | 'pending' | 'not-approved' | 'NA';

/** The stages of a request not yet approved nor closed (a cell request is "Requested" until approved). */
const OPEN_STAGES = new Set([
  'requested',
  'prospecting',
  'qualification',
  'needs analysis',
  'proposal',
  'negotiation',
]);

/** One row of the Client Activity table as the client sees it. */
export interface ClientActivityRow {
  id: string;
  clientId: string;
  clientName: string;
  cellVialsOrdered: string;
  date: string;
  type: string;
  planPurchased: string;
  status: string;
  approval: ApprovalMark;
  /** "$2,575.00", or NA. */
  amount: string;
  receiptId: string | null;
  /** The vial request the row records: the row links to its page. */
  cellRequestId: string | null;
}

/**
 * The bank's records carry CRM stage names; the client reads what happened. A stage this list
 * does not know is shown as it is.
 */
const STATUS_WORDS: Record<string, string> = {
  'closed won': 'Paid',
  'closed lost': 'Not completed',
  prospecting: 'Requested',
  qualification: 'Requested',
  'needs analysis': 'In review',
  proposal: 'In review',
  negotiation: 'In review',
};

export function activityStatusLabel(stageName: string | null): string {
  const stage = stageName?.trim() ?? '';
  if (!stage) return NOT_APPLICABLE;
  return STATUS_WORDS[stage.toLowerCase()] ?? stage;
}

/** "Dose Retrieval Fee" becomes "Dose Retrieval": the word Fee is removed from the type. */
export function activityTypeLabel(type: string): string {
  return type
    .replace(/\bFee\b/g, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

export function practitionerApproval(record: ClientActivityRecord): ApprovalMark {
  const applies =
    record.Type.trim() === 'Dose Retrieval Fee' &&
    record.CloseDate !== null &&
    record.CloseDate > PRACTITIONER_APPROVAL_SINCE;
  if (!applies) return NOT_APPLICABLE;
  if (record.Cell_Request_Approved_By_Practitioner) return 'approved';
  return OPEN_STAGES.has(record.StageName?.trim().toLowerCase() ?? '') ? 'pending' : 'not-approved';
}

export function toClientActivityRow(record: ClientActivityRecord): ClientActivityRow {
  return {
    id: record.Id,
    clientId: record.ClientId,
    clientName: record.ClientName,
    cellVialsOrdered:
      record.Dose_Amount && record.Dose_Amount > 0 ? String(record.Dose_Amount) : NOT_APPLICABLE,
    date: record.CloseDate ? isoToUsDate(record.CloseDate) : NOT_APPLICABLE,
    type: activityTypeLabel(record.Type) || NOT_APPLICABLE,
    planPurchased: record.Purchased_Plan_Name?.trim() || NOT_APPLICABLE,
    status: activityStatusLabel(record.StageName),
    approval: practitionerApproval(record),
    amount: record.Amount === null ? NOT_APPLICABLE : formatUsd(Math.round(Number(record.Amount) * 100)),
    receiptId: record.ReceiptId,
    cellRequestId: record.CellRequestId ?? null,
  };
}

export const CELL_REQUEST_NOTICE =
  '3 weeks notice is required on Cell Request Orders if no cells are available for immediate use.';
