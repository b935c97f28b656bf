import { z } from 'zod';
import { vialReleaseNotice } from './carrier-calendar';
import { addDays, addMonths, isoToUsDate } from './dates';
import { type Cents, formatUsd } from './money';
import { type StorageCharges, storageChargesSchema } from './payments';
import { renewalMessages, type StorageYearAmounts, yearAmountCents } from './storage-billing';
import { singleLine } from './text';

/**
 * Release readiness (issue 22; DESIGN.md sections 6 and 8 item 30): the checklist a vial release
 * goes through, each item done or naming what it waits for and, where there is one, the day it
 * clears. Three of them hold a new request on the server: the consent, the three months after
 * the Enrollment Date (spec 2: "release requests from three months after the Enrollment Date";
 * the banked date where none is recorded) and annual storage overdue with no method on file to
 * pay it with the order. The others are the bank's own steps or dates the shipment rules apply.
 */

/** Months after the Enrollment Date from which a release may be requested (spec 2 section 9). */
export const RELEASE_AFTER_ENROLLMENT_MONTHS = 3;
/** Days either side of the sample's extraction within which the screening is done (spec 2 section 9). */
export const SCREENING_WINDOW_DAYS = 14;

export const RELEASE_ITEMS = [
  'consent',
  'screening',
  'storage',
  'cellsReady',
  'enrollment',
  'approval',
  'address',
] as const;
export type ReleaseItemKey = (typeof RELEASE_ITEMS)[number];

export const releaseItemLabels: Record<ReleaseItemKey, string> = {
  consent: 'Consent signed',
  screening: 'Infectious disease screening done, within its window',
  storage: 'Annual storage paid',
  cellsReady: 'Cells banked and ready',
  enrollment: 'Three months since the Enrollment Date',
  approval: "Practitioner's approval",
  address: 'Shipping address verified',
};

const years = (n: number) => `${n} ${n === 1 ? 'year' : 'years'}`;

export const releaseMessages = {
  consent: 'Waits for the signature on the client consent.',
  consentDone: 'Signed.',
  screeningToDo: (dueBy: string | null) =>
    dueBy
      ? `Waits for the infectious disease screening, due by ${isoToUsDate(dueBy)} (within ${SCREENING_WINDOW_DAYS} days of the sample's extraction).`
      : 'Waits for the infectious disease screening.',
  screeningReview: "Waits for ACT's review of the uploaded lab report.",
  screeningOutsideWindow: (doneOn: string, from: string, to: string) =>
    `Done on ${isoToUsDate(doneOn)}, outside its window (${isoToUsDate(from)} to ${isoToUsDate(to)}, ${SCREENING_WINDOW_DAYS} days either side of the sample's extraction): waits for ACT's review.`,
  screeningDone: (doneOn: string | null) =>
    doneOn ? `Done on ${isoToUsDate(doneOn)}.` : 'Recorded as done.',
  storageOverdueWithMethod: (count: number, cents: Cents) =>
    `${years(count)} of annual storage overdue (${formatUsd(cents)}): added to the payment of the next request.`,
  storageOverdueNoMethod: (count: number, cents: Cents) =>
    `Waits for the payment of ${years(count)} of annual storage overdue (${formatUsd(cents)}).`,
  storagePaidUntil: (paidUntil: string) => `Paid until ${isoToUsDate(paidUntil)}.`,
  storageRetrying: (nextTry: string) =>
    `${renewalMessages.retrying(nextTry)}: a payment still being retried does not hold a release.`,
  storageIncluded: 'The first year of storage is included.',
  notBanked: 'Waits for the sample to arrive at the laboratory.',
  cellsReadyOn: (on: string) =>
    `Banked; ready ${vialReleaseNotice.afterBanking} days after banking, on ${isoToUsDate(on)}.`,
  cellsReady: (bankedOn: string) => `Banked on ${isoToUsDate(bankedOn)}; ready.`,
  enrollmentOn: (on: string) =>
    `Release requests are accepted from three months after the Enrollment Date: from ${isoToUsDate(on)}.`,
  enrollmentDone: (since: string) => `Since ${isoToUsDate(since)}.`,
  enrollmentUnknown: 'Waits for the Enrollment Date (the day the laboratory receives the sample).',
  approvalAfterRequest: 'Waits for the request: the practitioner approves it once it is sent.',
  approvalWaiting: "Waits for the practitioner's approval.",
  approvalDone: (on: string) => `Approved on ${isoToUsDate(on)}.`,
  addressOnForm: 'Waits for the shipping address: verify it with FedEx on the form.',
  addressDone: 'Verified with FedEx.',
  addressByAct: 'Waits for ACT to confirm the shipping address (not verified with FedEx).',
  requestCancelled: 'The request is cancelled.',
} as const;

/** The server's refusals of a request a rule holds: which rule, and the day it clears. */
export const releaseRefusals = {
  enrollment: (on: string) =>
    `Release requests are accepted from three months after the Enrollment Date. You can send this request from ${isoToUsDate(on)}.`,
  enrollmentUnknown:
    'Release requests are accepted from three months after the Enrollment Date, and yours is not recorded yet: the laboratory has not received your sample.',
  storageOverdue: (count: number, cents: Cents) =>
    `Your annual storage is overdue (${years(count)}, ${formatUsd(cents)}) and must be paid before vials are released. Please pay it on the Payment Information page; it is charged when you save a card or bank account.`,
  storageChanged:
    'Your overdue annual storage changed while you were ordering. Please review the order summary and submit again.',
  storageBeingPaid:
    'A payment of your overdue annual storage is under way. Please wait a moment and submit again.',
} as const;

/** The storage years a release request is held by: overdue ones, not those still in their retry days. */
export interface OverdueStorageYear extends StorageYearAmounts {
  id: string;
  dueDate: string;
}

/** What overdue years cost before any card fee: their ACH amounts (an older year: its amount). */
export function overdueStorageCents(years: readonly StorageYearAmounts[]): Cents {
  return years.reduce((sum, y) => sum + yearAmountCents(y, 'ach'), 0);
}

export interface ReleaseFacts {
  today: string;
  consentSigned: boolean;
  screening: {
    done: boolean;
    /** The day it was done, when the portal recorded it (older records carry the flag only). */
    doneOn: string | null;
    /** A local lab's report uploaded and not yet reviewed by ACT. */
    awaitingReview: boolean;
  };
  /** The day the sample was extracted (shipped to the laboratory), else the banked date; null: not known. */
  sampleExtractedOn: string | null;
  dateBankedIn: string | null;
  enrollmentDate: string | null;
  storage: {
    paidUntil: string | null;
    overdueYears: readonly OverdueStorageYear[];
    /** What paying them with a request charges, by card and by bank account (storage-billing.ts storageYearsCharge). */
    charges: StorageCharges;
    /** The next retry of a year in its retry days, if any. */
    retryingOn: string | null;
    methodOnFile: boolean;
  };
  /** The request the checklist is for; null: a request not sent yet (the form). */
  request: {
    approvedOn: string | null;
    addressVerified: boolean;
    cancelled: boolean;
  } | null;
}

export const releaseItemSchema = z.object({
  key: z.enum(RELEASE_ITEMS),
  label: z.string(),
  done: z.boolean(),
  /** The item refuses a new request now (red on the page). */
  holdsRequest: z.boolean(),
  /** The client clears it themselves (the consent, the screening, paying overdue storage). */
  byClient: z.boolean(),
  text: z.string(),
  /** YYYY-MM-DD: the day the item clears by itself, when it has one. */
  clearsOn: z.string().nullable(),
});
export type ReleaseItem = z.infer<typeof releaseItemSchema>;

export const releaseReadinessSchema = z.object({
  items: z.array(releaseItemSchema),
  /** No item holds a new request. */
  canRequest: z.boolean(),
  overdueStorage: z.object({
    years: z.number().int(),
    amountCents: z.number().int().describe('Before any card fee (by bank account)'),
    /** Added to the next request's charge (a method is on file); false: it holds the request. */
    addedToOrder: z.boolean(),
    charges: storageChargesSchema.describe(
      'What the request charges for them by card and by bank account: each year at the amount its notice fixed',
    ),
  }),
});
export type ReleaseReadiness = z.infer<typeof releaseReadinessSchema>;

export const releaseReadinessQuerySchema = z.object({
  Client_id: singleLine(z.string().trim().max(64)).optional(),
  id: z.uuid({ error: 'Not found' }).optional().describe('A vial request: the checklist of that request'),
});

/** The day a release may first be requested: three months after the Enrollment Date, else the banked date. */
export function releaseRequestsOpenOn(
  enrollmentDate: string | null,
  dateBankedIn: string | null,
): string | null {
  const from = enrollmentDate ?? dateBankedIn;
  return from ? addMonths(from, RELEASE_AFTER_ENROLLMENT_MONTHS) : null;
}

/** The day banked cells count as ready (DESIGN.md section 6), null before banking. */
export function cellsReadyOn(dateBankedIn: string | null): string | null {
  return dateBankedIn ? addDays(dateBankedIn, vialReleaseNotice.afterBanking) : null;
}

function item(
  key: ReleaseItemKey,
  state: {
    done: boolean;
    text: string;
    holdsRequest?: boolean;
    clearsOn?: string | null;
    byClient?: boolean;
  },
): ReleaseItem {
  return {
    key,
    label: releaseItemLabels[key],
    done: state.done,
    holdsRequest: state.holdsRequest ?? false,
    byClient: state.byClient ?? false,
    text: state.text,
    clearsOn: state.clearsOn ?? null,
  };
}

function screeningItem(facts: ReleaseFacts): ReleaseItem {
  const { screening, sampleExtractedOn: extracted } = facts;
  const from = extracted ? addDays(extracted, -SCREENING_WINDOW_DAYS) : null;
  const to = extracted ? addDays(extracted, SCREENING_WINDOW_DAYS) : null;
  if (!screening.done) {
    return item('screening', {
      done: false,
      byClient: true,
      text: releaseMessages.screeningToDo(to && to >= facts.today ? to : null),
    });
  }
  if (screening.awaitingReview)
    return item('screening', { done: false, text: releaseMessages.screeningReview });
  if (screening.doneOn && from && to && (screening.doneOn < from || screening.doneOn > to)) {
    return item('screening', {
      done: false,
      text: releaseMessages.screeningOutsideWindow(screening.doneOn, from, to),
    });
  }
  return item('screening', { done: true, text: releaseMessages.screeningDone(screening.doneOn) });
}

function storageItem(facts: ReleaseFacts): ReleaseItem {
  const { storage } = facts;
  const overdueCents = overdueStorageCents(storage.overdueYears);
  const count = storage.overdueYears.length;
  if (count > 0 && !storage.methodOnFile) {
    return item('storage', {
      done: false,
      holdsRequest: true,
      byClient: true,
      text: releaseMessages.storageOverdueNoMethod(count, overdueCents),
    });
  }
  if (count > 0) {
    return item('storage', {
      done: false,
      text: releaseMessages.storageOverdueWithMethod(count, overdueCents),
    });
  }
  if (storage.retryingOn)
    return item('storage', { done: true, text: releaseMessages.storageRetrying(storage.retryingOn) });
  return item('storage', {
    done: true,
    text: storage.paidUntil
      ? releaseMessages.storagePaidUntil(storage.paidUntil)
      : releaseMessages.storageIncluded,
  });
}

function cellsItem(facts: ReleaseFacts): ReleaseItem {
  const readyOn = cellsReadyOn(facts.dateBankedIn);
  if (!facts.dateBankedIn || !readyOn)
    return item('cellsReady', { done: false, text: releaseMessages.notBanked });
  if (readyOn > facts.today) {
    return item('cellsReady', {
      done: false,
      text: releaseMessages.cellsReadyOn(readyOn),
      clearsOn: readyOn,
    });
  }
  return item('cellsReady', { done: true, text: releaseMessages.cellsReady(facts.dateBankedIn) });
}

function enrollmentItem(facts: ReleaseFacts): ReleaseItem {
  const opensOn = releaseRequestsOpenOn(facts.enrollmentDate, facts.dateBankedIn);
  // A request already sent was accepted under this rule.
  if (facts.request && opensOn)
    return item('enrollment', { done: true, text: releaseMessages.enrollmentDone(opensOn) });
  if (!opensOn)
    return item('enrollment', { done: false, holdsRequest: true, text: releaseMessages.enrollmentUnknown });
  if (opensOn > facts.today) {
    return item('enrollment', {
      done: false,
      holdsRequest: true,
      text: releaseMessages.enrollmentOn(opensOn),
      clearsOn: opensOn,
    });
  }
  return item('enrollment', { done: true, text: releaseMessages.enrollmentDone(opensOn) });
}

function approvalItem(facts: ReleaseFacts): ReleaseItem {
  const { request } = facts;
  if (!request) return item('approval', { done: false, text: releaseMessages.approvalAfterRequest });
  if (request.approvedOn)
    return item('approval', { done: true, text: releaseMessages.approvalDone(request.approvedOn) });
  return item('approval', {
    done: false,
    text: request.cancelled ? releaseMessages.requestCancelled : releaseMessages.approvalWaiting,
  });
}

/** The address of a request not sent yet: as the form has verified it with FedEx, or not yet. */
function formAddressItem(verifiedOnForm: boolean): ReleaseItem {
  return verifiedOnForm
    ? item('address', { done: true, text: releaseMessages.addressDone })
    : item('address', { done: false, text: releaseMessages.addressOnForm });
}

function addressItem(facts: ReleaseFacts): ReleaseItem {
  const { request } = facts;
  if (!request) return formAddressItem(false);
  if (request.addressVerified) return item('address', { done: true, text: releaseMessages.addressDone });
  return item('address', {
    done: false,
    text: request.cancelled ? releaseMessages.requestCancelled : releaseMessages.addressByAct,
  });
}

/** The release checklist from the client's facts today. */
export function releaseReadiness(facts: ReleaseFacts): ReleaseReadiness {
  const items = [
    item(
      'consent',
      facts.consentSigned
        ? { done: true, text: releaseMessages.consentDone }
        : { done: false, holdsRequest: true, byClient: true, text: releaseMessages.consent },
    ),
    screeningItem(facts),
    storageItem(facts),
    cellsItem(facts),
    enrollmentItem(facts),
    approvalItem(facts),
    addressItem(facts),
  ];
  const overdue = facts.storage.overdueYears;
  return {
    items,
    canRequest: items.every((i) => !i.holdsRequest),
    overdueStorage: {
      years: overdue.length,
      amountCents: overdueStorageCents(overdue),
      addedToOrder: overdue.length > 0 && facts.storage.methodOnFile,
      charges: facts.storage.charges,
    },
  };
}

/**
 * The checklist of the next request as the Stem Cell Request Form stands: its address item
 * follows the form's own verification with FedEx (verified, or changed since and no longer), which
 * the server learns only once the request is sent. Only for the next request's checklist: one of
 * a request already sent keeps the server's word. The address never holds a request, so whether one
 * may be sent does not change.
 */
export function withAddressOnForm(readiness: ReleaseReadiness, verifiedOnForm: boolean): ReleaseReadiness {
  return {
    ...readiness,
    items: readiness.items.map((i) => (i.key === 'address' ? formAddressItem(verifiedOnForm) : i)),
  };
}

/**
 * Why the server refuses a new release request by the three-month rule, or null: the rule's
 * sentence with the day it clears.
 */
export function enrollmentRefusal(
  today: string,
  enrollmentDate: string | null,
  dateBankedIn: string | null,
): string | null {
  const opensOn = releaseRequestsOpenOn(enrollmentDate, dateBankedIn);
  if (!opensOn) return releaseRefusals.enrollmentUnknown;
  return opensOn > today ? releaseRefusals.enrollment(opensOn) : null;
}
