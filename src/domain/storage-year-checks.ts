import { z } from 'zod';
import { checkEntryFields, recordedCheckFields } from './staff-queues';

/**
 * Storage years paid by check (issue 21): a client with no method on file, or paying by check,
 * gets an invoice as the year's notice; the check, when it arrives, is recorded on this queue and
 * pays the year (its card-or-check amount, exactly) as autopay would have.
 */
export const storageCheckMessages = {
  recorded: 'Check recorded. The storage year is paid and the client was e-mailed the receipt.',
  yearGone: 'This storage year is not waiting for a check any more.',
  paidOnline: (on: string) => `This storage year was already paid by card or bank account on ${on}.`,
  paymentUnderWay:
    'A card or bank payment for this storage year is under way. Please look again in a minute.',
  noYears: 'No storage years are waiting for a check.',
  earlierYearFirst: (dueDate: string) =>
    `The client's storage year due ${dueDate} is not paid yet: record its check first.`,
} as const;

export const storageYearAwaitingCheckSchema = z.object({
  feeId: z.uuid(),
  clientId: z.uuid(),
  clientActId: z.string(),
  clientName: z.string(),
  yearNumber: z.number().int().nullable().describe('1: the year after the included first one'),
  dueDate: z.string().describe('YYYY-MM-DD: the day the invoice asked to be paid by'),
  overdue: z.boolean(),
  amountDueCents: z.number().int().describe("The year's card-or-check amount, fixed by its notice"),
  paidUntil: z.string().nullable().describe("The client's storage paid-until date now (YYYY-MM-DD)"),
  paysUntil: z.string().describe('YYYY-MM-DD: storage is paid until this day once the year is paid'),
});
export type StorageYearAwaitingCheck = z.infer<typeof storageYearAwaitingCheckSchema>;
export const storageChecksResponseSchema = z.object({ years: z.array(storageYearAwaitingCheckSchema) });

export const recordStorageCheckRequestSchema = z.object({ feeId: z.uuid(), ...checkEntryFields });
export type RecordStorageCheckRequest = z.infer<typeof recordStorageCheckRequestSchema>;

export const recordStorageCheckResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  feeId: z.uuid(),
  clientActId: z.string(),
  ...recordedCheckFields,
  paidUntil: z.string().nullable().describe('The storage paid-until date after the year (YYYY-MM-DD)'),
});
export type RecordStorageCheckResponse = z.infer<typeof recordStorageCheckResponseSchema>;

/** A storage year as the queue and its receipt name it. */
export function storageYearName(yearNumber: number | null): string {
  return yearNumber === null ? 'annual storage' : `storage year ${yearNumber}`;
}
