import { z } from 'zod';
import { isBusinessDay } from './cell-request-cancellation';
import { addDays, isoDateOf, isoToUsDate, zonedInstant } from './dates';
import { singleLine } from './text';

/**
 * A vial request a physician placed for a client they act for (issue 23, as the agreement allows):
 * the client is e-mailed at once with a link to object, and an objection within two business days
 * (the carrier calendar's: Monday to Friday, no carrier holiday) of the request cancels it at no
 * cost, whatever the cancellation cutoff. The window runs to the end (midnight Eastern) of the
 * second business day after the day the request was placed; the vials ship only after it.
 */

const BANK_TIME_ZONE = 'America/New_York';
export const OBJECTION_BUSINESS_DAYS = 2;

/** The link stays readable a week past the window, so a late click reads why it is closed. */
export const OBJECTION_LINK_MARGIN_MS = 7 * 24 * 60 * 60_000;

/** Who pays a physician's request: the client's method on file, or the physician's own. */
export const CELL_REQUEST_PAYERS = ['client', 'physician'] as const;
export type CellRequestPayer = (typeof CELL_REQUEST_PAYERS)[number];

/** The last day of the objection window: the second business day after the day of the request. */
export function objectionLastDay(requestedAt: Date): string {
  let day = isoDateOf(requestedAt, BANK_TIME_ZONE);
  let counted = 0;
  while (counted < OBJECTION_BUSINESS_DAYS) {
    day = addDays(day, 1);
    if (isBusinessDay(day)) counted += 1;
  }
  return day;
}

/** The instant the objection window closes: midnight Eastern at the end of its last day. */
export function objectionDeadline(requestedAt: Date): Date {
  return zonedInstant(addDays(objectionLastDay(requestedAt), 1), 0, BANK_TIME_ZONE);
}

/**
 * The earliest arrival date of a physician's request placed today: the vials leave the day after
 * the window's last day, overnight, so they arrive the day after that.
 */
export function earliestAfterObjection(now: Date): string {
  return addDays(objectionLastDay(now), 2);
}

/** The window's end as people read it: "the end of 12/08/2026 (Eastern)". */
export function objectionDeadlineText(deadline: Date | string): string {
  const instant = new Date(new Date(deadline).getTime() - 1);
  return `the end of ${isoToUsDate(isoDateOf(instant, BANK_TIME_ZONE))} (Eastern time)`;
}

export const objectionMessages = {
  paymentChoice:
    "Please pay with the client's card or bank account on file, or with your own: a new card or account entered here is yours.",
  clientOnly: 'Only a physician orders for a client and chooses who pays.',
  emailSubject: 'A stem cell request was placed for you',
  linkInvalid: 'This objection link is not valid or has expired.',
  closed: (deadline: Date | string) =>
    `The time to object ended at ${objectionDeadlineText(deadline)}. Please contact ACT to cancel the request under its cancellation policy.`,
  shipped: 'The vials have shipped: the request can no longer be cancelled by an objection.',
  cancelledOtherwise: 'This request was already cancelled.',
  objected: 'Your objection was recorded: the request is cancelled and everything paid is refunded.',
  physicianSubject: 'Your client objected to the stem cell request',
  shipBeforeWindowEnds: (deadline: Date | string) =>
    `The client may object to this request until ${objectionDeadlineText(deadline)}: it ships only after that.`,
} as const;

/** The public objection link's answer: who asked for what, and whether the client may still object. */
export const objectionViewSchema = z.object({
  reference: z.string(),
  clientFirstName: z.string(),
  physicianName: z.string(),
  vials: z.number().int(),
  shipmentDate: z.string().describe('The arrival date chosen, MM/DD/YYYY'),
  clinicName: z.string(),
  shipTo: z.string(),
  totalCents: z.number().int(),
  paidBy: z.enum(CELL_REQUEST_PAYERS),
  paymentDescription: z.string(),
  deadline: z.string().describe('The end of the objection window (ISO instant)'),
  state: z.enum(['open', 'objected', 'closed']),
  /** Why the window is closed, or what the objection did. */
  message: z.string().nullable(),
  objection: z
    .object({
      at: z.string(),
      note: z.string(),
      refundCents: z.number().int(),
      returnedVials: z.number().int(),
    })
    .nullable(),
});
export type ObjectionView = z.infer<typeof objectionViewSchema>;

export const objectionTokenSchema = z.object({ token: z.string().min(1).max(400) });

export const cellRequestObjectionSchema = objectionTokenSchema.extend({
  note: singleLine(z.string().trim().max(500, 'Please keep the note under 500 characters')).default(''),
});
export type CellRequestObjection = z.infer<typeof cellRequestObjectionSchema>;
