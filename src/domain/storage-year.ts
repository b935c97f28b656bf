import { z } from 'zod';
import { addYears, calendarDateToIso } from './dates';

/**
 * The storage year (issue 21): the tissue's arrival at the bank is its banked date, the client's
 * Enrollment Date for billing. The first year is included with the initial processing, so storage
 * is paid until the first anniversary; year n falls due on the n-th anniversary. A 29 February
 * banked date falls due on 28 February in other years and on 29 February in leap years.
 */

/** The n-th anniversary of the banked date (n = 1, 2, 3…), when storage year n + 1 falls due. */
export function storageAnniversary(bankedDate: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a storage year: ${n}`);
  return addYears(bankedDate, n);
}

/** Paid-until of a client whose tissue has just arrived: the first anniversary. */
export function firstYearPaidUntil(bankedDate: string): string {
  return storageAnniversary(bankedDate, 1);
}

export const sampleReceiptMessages = {
  receivedOnRequired: 'Please enter the date the sample arrived',
  receivedOnInvalid: 'Please enter the date as MM/DD/YYYY',
  receivedOnFuture: 'The arrival date cannot be in the future',
  receivedOnBeforeSubmission: 'The arrival date cannot be before the sample form was sent',
  vialsRequired: 'Please enter the number of vials banked',
  vialsInvalid: 'Please enter a whole number of vials from 1 to 99',
  received: (paidUntil: string) =>
    `Sample received. The first year of storage is included: storage is paid until ${paidUntil}.`,
  alreadyReceived: (by: string, on: string) => `This sample was already received by ${by} on ${on}.`,
  sampleGone: 'This sample is not waiting to be received any more.',
  noSamples: 'No samples are waiting to be received.',
} as const;

/** What staff type when a sample arrives. */
export interface SampleReceiptEntry {
  receivedOn: string;
  vialsBanked: string;
}

/** The entry's problems, by field: a real date, not in the future nor before the form; 1 to 99 vials. */
export function sampleReceiptProblems(
  entry: SampleReceiptEntry,
  context: { today: string; submittedOn: string },
): Partial<Record<keyof SampleReceiptEntry, string>> {
  const m = sampleReceiptMessages;
  const problems: Partial<Record<keyof SampleReceiptEntry, string>> = {};
  const typed = entry.receivedOn.trim();
  const iso = calendarDateToIso(typed);
  if (!typed) problems.receivedOn = m.receivedOnRequired;
  else if (!iso) problems.receivedOn = m.receivedOnInvalid;
  else if (iso > context.today) problems.receivedOn = m.receivedOnFuture;
  else if (iso < context.submittedOn) problems.receivedOn = m.receivedOnBeforeSubmission;
  const vials = entry.vialsBanked.trim();
  if (!vials) problems.vialsBanked = m.vialsRequired;
  else if (!/^\d{1,2}$/.test(vials) || Number(vials) < 1) problems.vialsBanked = m.vialsInvalid;
  return problems;
}

export const sampleToReceiveSchema = z.object({
  sampleId: z.uuid(),
  clientId: z.uuid(),
  clientActId: z.string(),
  clientName: z.string(),
  physicianName: z.string(),
  tissue: z.string(),
  shipDate: z.string().describe('MM/DD/YYYY, the ship date the physician gave'),
  submittedAt: z.string().describe('ISO instant the sample form was sent'),
  paidBy: z.enum(['card', 'check']),
  initialProcessingPaid: z.boolean(),
});
export type SampleToReceive = z.infer<typeof sampleToReceiveSchema>;

export const samplesToReceiveResponseSchema = z.object({ samples: z.array(sampleToReceiveSchema) });

export const receiveSampleRequestSchema = z.object({
  sampleId: z.uuid(),
  receivedOn: z.string().max(20),
  vialsBanked: z.string().max(10),
});
export type ReceiveSampleRequest = z.infer<typeof receiveSampleRequestSchema>;

export const receiveSampleResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  sampleId: z.uuid(),
  clientActId: z.string(),
  receivedOn: z.string().describe('YYYY-MM-DD: the banked date'),
  vialsBanked: z.number().int(),
  paidUntil: z.string().describe('YYYY-MM-DD: the first anniversary'),
});
export type ReceiveSampleResponse = z.infer<typeof receiveSampleResponseSchema>;
