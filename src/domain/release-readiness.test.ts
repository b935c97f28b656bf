import { describe, expect, it } from 'vitest';
import { addMonths } from './dates';
import {
  enrollmentRefusal,
  type ReleaseFacts,
  type ReleaseItemKey,
  releaseReadiness,
  releaseRequestsOpenOn,
  withAddressOnForm,
} from './release-readiness';

const TODAY = '2026-05-20';

/** A client ready in every respect but the request itself: banked long ago, all signed and paid. */
const ready: ReleaseFacts = {
  today: TODAY,
  consentSigned: true,
  screening: { done: true, doneOn: '2021-03-05', awaitingReview: false },
  sampleExtractedOn: '2021-03-01',
  dateBankedIn: '2021-03-02',
  enrollmentDate: null,
  storage: {
    paidUntil: '2027-03-02',
    overdueYears: [],
    charges: {
      card: { amountCents: 0, feeCents: 0, totalCents: 0 },
      ach: { amountCents: 0, feeCents: 0, totalCents: 0 },
    },
    retryingOn: null,
    methodOnFile: true,
  },
  request: null,
};

function itemOf(facts: Partial<ReleaseFacts>, key: ReleaseItemKey) {
  const found = releaseReadiness({ ...ready, ...facts }).items.find((i) => i.key === key);
  if (!found) throw new Error(`no ${key} item`);
  return found;
}

/** Two years billed before notices fixed their amounts: $339.81 each, a card adding 3%. */
const twoYears = [
  { id: 'a', dueDate: '2024-06-19', amountCents: 33_981, achAmountCents: null },
  { id: 'b', dueDate: '2025-06-19', amountCents: 33_981, achAmountCents: null },
];
/** What the server prices them at: $679.62, by card with $20.39 of fee. */
const twoYearsCharges = {
  card: { amountCents: 67_962, feeCents: 2_039, totalCents: 70_001 },
  ach: { amountCents: 67_962, feeCents: 0, totalCents: 67_962 },
};

describe('the checklist lists the seven items of a release, in order', () => {
  it('names each', () => {
    expect(releaseReadiness(ready).items.map((i) => i.label)).toEqual([
      'Consent signed',
      'Infectious disease screening done, within its window',
      'Annual storage paid',
      'Cells banked and ready',
      'Three months since the Enrollment Date',
      "Practitioner's approval",
      'Shipping address verified',
    ]);
  });

  it('a ready client may request; the request itself still waits for approval and the address', () => {
    const readiness = releaseReadiness(ready);
    expect(readiness.canRequest).toBe(true);
    expect(readiness.items.filter((i) => !i.done).map((i) => i.key)).toEqual(['approval', 'address']);
  });
});

describe('consent', () => {
  it('missing: waits for the signature and holds a request', () => {
    const readiness = releaseReadiness({ ...ready, consentSigned: false });
    expect(readiness.items[0]).toMatchObject({
      key: 'consent',
      done: false,
      holdsRequest: true,
      byClient: true,
      text: 'Waits for the signature on the client consent.',
    });
    expect(readiness.canRequest).toBe(false);
  });
});

describe('screening: done, and within 14 days either side of the extraction', () => {
  it.each<[string, ReleaseFacts['screening'], string | null, boolean, string]>([
    [
      'not done, its window still open',
      { done: false, doneOn: null, awaitingReview: false },
      '2026-05-10',
      false,
      "Waits for the infectious disease screening, due by 05/24/2026 (within 14 days of the sample's extraction).",
    ],
    [
      'not done, its window past',
      { done: false, doneOn: null, awaitingReview: false },
      '2021-03-01',
      false,
      'Waits for the infectious disease screening.',
    ],
    [
      'done 14 days before the extraction: the first day of its window',
      { done: true, doneOn: '2021-02-15', awaitingReview: false },
      '2021-03-01',
      true,
      'Done on 02/15/2021.',
    ],
    [
      'done 14 days after the extraction: the last day of its window',
      { done: true, doneOn: '2021-03-15', awaitingReview: false },
      '2021-03-01',
      true,
      'Done on 03/15/2021.',
    ],
    [
      'done 15 days after the extraction',
      { done: true, doneOn: '2021-03-16', awaitingReview: false },
      '2021-03-01',
      false,
      "Done on 03/16/2021, outside its window (02/15/2021 to 03/15/2021, 14 days either side of the sample's extraction): waits for ACT's review.",
    ],
    [
      'done 15 days before the extraction',
      { done: true, doneOn: '2021-02-14', awaitingReview: false },
      '2021-03-01',
      false,
      "Done on 02/14/2021, outside its window (02/15/2021 to 03/15/2021, 14 days either side of the sample's extraction): waits for ACT's review.",
    ],
    [
      'a window across a leap day',
      { done: true, doneOn: '2024-03-14', awaitingReview: false },
      '2024-02-29',
      true,
      'Done on 03/14/2024.',
    ],
    [
      'a lab report awaiting review',
      { done: true, doneOn: '2021-03-05', awaitingReview: true },
      '2021-03-01',
      false,
      "Waits for ACT's review of the uploaded lab report.",
    ],
    [
      'done on an older record without its day',
      { done: true, doneOn: null, awaitingReview: false },
      '2021-03-01',
      true,
      'Recorded as done.',
    ],
    [
      'done, the extraction not known',
      { done: true, doneOn: '2026-01-10', awaitingReview: false },
      null,
      true,
      'Done on 01/10/2026.',
    ],
  ])('%s', (_case, screening, extracted, done, text) => {
    const found = itemOf({ screening, sampleExtractedOn: extracted }, 'screening');
    expect(found).toMatchObject({ done, text, holdsRequest: false });
  });
});

describe('annual storage: overdue years hold a release unless a method on file pays them with it', () => {
  it('overdue with a method on file: added to the order, not holding it', () => {
    const readiness = releaseReadiness({
      ...ready,
      storage: { ...ready.storage, overdueYears: twoYears, charges: twoYearsCharges },
    });
    expect(readiness.items[2]).toMatchObject({
      done: false,
      holdsRequest: false,
      text: '2 years of annual storage overdue ($679.62): added to the payment of the next request.',
    });
    expect(readiness.canRequest).toBe(true);
    expect(readiness.overdueStorage).toEqual({
      years: 2,
      amountCents: 67_962,
      addedToOrder: true,
      charges: twoYearsCharges,
    });
  });

  it('years whose notices fixed their amounts: their ACH amounts before any card fee', () => {
    // Noticed at $360.00 by card and $345.00 by ACH each (a later version of the book).
    const noticed = [
      { id: 'c', dueDate: '2025-06-19', amountCents: 36_000, achAmountCents: 34_500 },
      { id: 'd', dueDate: '2026-05-01', amountCents: 36_000, achAmountCents: 34_500 },
    ];
    const readiness = releaseReadiness({ ...ready, storage: { ...ready.storage, overdueYears: noticed } });
    expect(readiness.items[2]).toMatchObject({
      text: '2 years of annual storage overdue ($690.00): added to the payment of the next request.',
    });
    expect(readiness.overdueStorage).toMatchObject({ years: 2, amountCents: 69_000 });
  });

  it('overdue with no method on file: holds the request until paid', () => {
    const readiness = releaseReadiness({
      ...ready,
      storage: { ...ready.storage, overdueYears: twoYears.slice(1), methodOnFile: false },
    });
    expect(readiness.items[2]).toMatchObject({
      done: false,
      holdsRequest: true,
      text: 'Waits for the payment of 1 year of annual storage overdue ($339.81).',
    });
    expect(readiness.canRequest).toBe(false);
    expect(readiness.overdueStorage).toMatchObject({ years: 1, amountCents: 33_981, addedToOrder: false });
  });

  it('a year in its retry days does not hold a release', () => {
    const found = itemOf(
      { storage: { ...ready.storage, retryingOn: '2026-05-27', methodOnFile: false } },
      'storage',
    );
    expect(found).toMatchObject({
      done: true,
      holdsRequest: false,
      text: 'Payment due, retrying on 05/27/2026: a payment still being retried does not hold a release.',
    });
  });

  it.each([
    ['2027-03-02', 'Paid until 03/02/2027.'],
    [null, 'The first year of storage is included.'],
  ])('paid until %s', (paidUntil, text) => {
    expect(itemOf({ storage: { ...ready.storage, paidUntil } }, 'storage')).toMatchObject({
      done: true,
      text,
    });
  });
});

describe('cells are ready 42 days after the banked date', () => {
  it.each<[string | null, boolean, string, string | null]>([
    [null, false, 'Waits for the sample to arrive at the laboratory.', null],
    // The 42nd day itself is ready.
    ['2026-04-08', true, 'Banked on 04/08/2026; ready.', null],
    ['2026-04-09', false, 'Banked; ready 42 days after banking, on 05/21/2026.', '2026-05-21'],
    ['2026-04-07', true, 'Banked on 04/07/2026; ready.', null],
    // Across a leap day: 42 days from 02/01/2028 is 03/14/2028.
    ['2028-02-01', false, 'Banked; ready 42 days after banking, on 03/14/2028.', '2028-03-14'],
  ])('banked %s', (dateBankedIn, done, text, clearsOn) => {
    const found = itemOf({ dateBankedIn, enrollmentDate: '2020-01-01' }, 'cellsReady');
    expect(found).toMatchObject({ done, text, clearsOn, holdsRequest: false });
  });
});

describe('release requests from three months after the Enrollment Date, else the banked date', () => {
  it.each<[string | null, string | null, string | null]>([
    ['2026-02-20', null, '2026-05-20'],
    ['2025-11-30', null, '2026-02-28'],
    ['2023-11-30', null, '2024-02-29'],
    [null, '2026-01-31', '2026-04-30'],
    ['2026-01-10', '2025-12-01', '2026-04-10'],
    [null, null, null],
  ])('enrolled %s, banked %s: from %s', (enrollmentDate, dateBankedIn, opensOn) => {
    expect(releaseRequestsOpenOn(enrollmentDate, dateBankedIn)).toBe(opensOn);
  });

  it.each<[string, string | null, string | null, boolean, string, string | null]>([
    ['the first day', '2026-02-20', null, true, 'Since 05/20/2026.', null],
    [
      'the day before',
      '2026-02-21',
      null,
      false,
      'Release requests are accepted from three months after the Enrollment Date: from 05/21/2026.',
      '2026-05-21',
    ],
    [
      'no Enrollment Date: the banked date',
      null,
      '2026-03-01',
      false,
      'Release requests are accepted from three months after the Enrollment Date: from 06/01/2026.',
      '2026-06-01',
    ],
    [
      'neither recorded',
      null,
      null,
      false,
      'Waits for the Enrollment Date (the day the laboratory receives the sample).',
      null,
    ],
  ])('%s', (_case, enrollmentDate, dateBankedIn, done, text, clearsOn) => {
    const readiness = releaseReadiness({ ...ready, enrollmentDate, dateBankedIn });
    expect(readiness.items[4]).toMatchObject({ done, text, clearsOn, holdsRequest: !done });
    expect(readiness.canRequest).toBe(done);
  });

  it('the server refuses by the rule, naming the day it clears', () => {
    expect(enrollmentRefusal(TODAY, '2026-03-01', null)).toBe(
      'Release requests are accepted from three months after the Enrollment Date. You can send this request from 06/01/2026.',
    );
    expect(enrollmentRefusal(TODAY, '2026-02-20', null)).toBeNull();
    expect(enrollmentRefusal(TODAY, null, null)).toBe(
      'Release requests are accepted from three months after the Enrollment Date, and yours is not recorded yet: the laboratory has not received your sample.',
    );
  });
});

describe("a request's own items: the practitioner's approval and the address", () => {
  it.each<[ReleaseFacts['request'], ReleaseItemKey, boolean, string]>([
    [null, 'approval', false, 'Waits for the request: the practitioner approves it once it is sent.'],
    [
      { approvedOn: null, addressVerified: true, cancelled: false },
      'approval',
      false,
      "Waits for the practitioner's approval.",
    ],
    [
      { approvedOn: '2026-05-18', addressVerified: true, cancelled: false },
      'approval',
      true,
      'Approved on 05/18/2026.',
    ],
    [
      { approvedOn: null, addressVerified: false, cancelled: true },
      'approval',
      false,
      'The request is cancelled.',
    ],
    [null, 'address', false, 'Waits for the shipping address: verify it with FedEx on the form.'],
    [{ approvedOn: null, addressVerified: true, cancelled: false }, 'address', true, 'Verified with FedEx.'],
    [
      { approvedOn: null, addressVerified: false, cancelled: false },
      'address',
      false,
      'Waits for ACT to confirm the shipping address (not verified with FedEx).',
    ],
  ])('%o: %s', (request, key, done, text) => {
    expect(itemOf({ request }, key)).toMatchObject({ done, text, holdsRequest: false });
  });

  it('a request already sent passed the three-month rule', () => {
    const found = itemOf(
      {
        request: { approvedOn: null, addressVerified: true, cancelled: false },
        enrollmentDate: '2026-04-01',
      },
      'enrollment',
    );
    expect(found).toMatchObject({ done: true, holdsRequest: false });
  });
});

describe("on the form, the address item follows the form's own verification with FedEx", () => {
  it.each<[boolean, boolean, string]>([
    [true, true, 'Verified with FedEx.'],
    [false, false, 'Waits for the shipping address: verify it with FedEx on the form.'],
  ])('verified on the form: %s', (verified, done, text) => {
    const onForm = withAddressOnForm(releaseReadiness(ready), verified);
    expect(onForm.items.find((i) => i.key === 'address')).toMatchObject({
      label: 'Shipping address verified',
      done,
      text,
      holdsRequest: false,
      byClient: false,
      clearsOn: null,
    });
  });

  it('changes nothing else: the other items, their order, and whether a request may be sent', () => {
    const held = releaseReadiness({ ...ready, consentSigned: false });
    const onForm = withAddressOnForm(held, true);
    expect(onForm.items.map((i) => i.key)).toEqual(held.items.map((i) => i.key));
    expect(onForm.items.filter((i) => i.key !== 'address')).toEqual(
      held.items.filter((i) => i.key !== 'address'),
    );
    expect(onForm.canRequest).toBe(false);
    expect(onForm.overdueStorage).toEqual(held.overdueStorage);
    expect(
      withAddressOnForm(releaseReadiness(ready), true)
        .items.filter((i) => !i.done)
        .map((i) => i.key),
    ).toEqual(['approval']);
  });
});

describe('the client clears some items themselves; the rest are the bank’s steps or dates', () => {
  it('the consent, a screening to do and overdue storage with no method on file', () => {
    const readiness = releaseReadiness({
      ...ready,
      consentSigned: false,
      screening: { done: false, doneOn: null, awaitingReview: false },
      storage: { ...ready.storage, overdueYears: twoYears, methodOnFile: false },
      enrollmentDate: addMonths(TODAY, -1),
    });
    expect(readiness.items.filter((i) => i.byClient).map((i) => i.key)).toEqual([
      'consent',
      'screening',
      'storage',
    ]);
  });

  it('not a lab report waiting for review, nor overdue years paid with the order', () => {
    const readiness = releaseReadiness({
      ...ready,
      screening: { done: true, doneOn: '2021-03-05', awaitingReview: true },
      storage: { ...ready.storage, overdueYears: twoYears },
    });
    expect(readiness.items.filter((i) => i.byClient)).toEqual([]);
  });
});
