import { describe, expect, it } from 'vitest';
import { earliestVialShipmentDate } from './carrier-calendar';
import { cancellationTerms } from './cell-request-cancellation';
import {
  earliestAfterObjection,
  objectionDeadline,
  objectionDeadlineText,
  objectionLastDay,
} from './cell-request-objection';

describe("a physician's request may be objected to until the end of the second business day after it", () => {
  it.each([
    [
      '2026-12-07T15:00:00.000Z',
      '2026-12-09',
      '2026-12-10T05:00:00.000Z',
      'Monday morning: to the end of Wednesday',
    ],
    [
      '2026-12-08T04:30:00.000Z',
      '2026-12-09',
      '2026-12-10T05:00:00.000Z',
      'Monday 11:30 PM Eastern, Tuesday in UTC: still Monday',
    ],
    [
      '2026-12-11T21:00:00.000Z',
      '2026-12-15',
      '2026-12-16T05:00:00.000Z',
      'Friday afternoon: over the weekend to Tuesday',
    ],
    ['2026-12-12T15:00:00.000Z', '2026-12-15', '2026-12-16T05:00:00.000Z', 'Saturday: Monday and Tuesday'],
    [
      '2026-11-25T17:00:00.000Z',
      '2026-11-30',
      '2026-12-01T05:00:00.000Z',
      'the day before Thanksgiving: Friday counts, Thursday does not',
    ],
    [
      '2026-12-30T17:00:00.000Z',
      '2027-01-04',
      '2027-01-05T05:00:00.000Z',
      "over New Year's Day into the next year",
    ],
    [
      '2026-03-06T17:00:00.000Z',
      '2026-03-10',
      '2026-03-11T04:00:00.000Z',
      'across the start of summer time: midnight EDT',
    ],
  ])('placed %s: last day %s, closes %s (%s)', (placed, lastDay, deadline) => {
    expect(objectionLastDay(new Date(placed))).toBe(lastDay);
    expect(objectionDeadline(new Date(placed)).toISOString()).toBe(deadline);
  });

  it('reads the end of the window as its last day, Eastern time', () => {
    expect(objectionDeadlineText('2026-12-10T05:00:00.000Z')).toBe('the end of 12/09/2026 (Eastern time)');
    expect(objectionDeadlineText('2026-03-11T04:00:00.000Z')).toBe('the end of 03/10/2026 (Eastern time)');
  });

  it('lets the vials arrive only the second day after the window: shipped the day after it, overnight', () => {
    expect(earliestAfterObjection(new Date('2026-12-07T15:00:00.000Z'))).toBe('2026-12-11');
    const covered = {
      today: '2026-12-07',
      coveredByBioInsurance: true,
      dateBankedIn: null,
      lastBioInsurancePurchasedDate: null,
    };
    expect(earliestVialShipmentDate(covered)).toBe('2026-12-09');
    expect(earliestVialShipmentDate({ ...covered, notBefore: '2026-12-11' })).toBe('2026-12-11');
    // The 21 days' notice of paid vials is later: it stands.
    expect(
      earliestVialShipmentDate({ ...covered, coveredByBioInsurance: false, notBefore: '2026-12-11' }),
    ).toBe('2026-12-28');
  });
});

describe('an objection within its window cancels at no cost, whatever the cancellation cutoff', () => {
  const facts = {
    // Wednesday 6 PM Eastern, a Friday delivery: past the 2 PM Wednesday cutoff.
    now: new Date('2026-12-09T23:00:00.000Z'),
    deliveryDate: '2026-12-11',
    shipped: false,
    vials: 2,
    prePaidVials: 1,
    charges: [{ paymentId: 'p1', totalCents: 63_693, feeCents: 1_855 }],
    replacementFeeCents: 25_000,
  };

  it('a cancellation then keeps the replacement fee and forfeits the pre-paid vial', () => {
    expect(cancellationTerms(facts)).toMatchObject({ phase: 'late', keptCents: 25_750, forfeitedVials: 1 });
  });

  it('an objection refunds everything and gives the pre-paid vial back', () => {
    expect(cancellationTerms({ ...facts, objection: true })).toMatchObject({
      allowed: true,
      phase: 'full',
      refundCents: 63_693,
      keptCents: 0,
      returnedVials: 1,
      forfeitedVials: 0,
    });
  });

  it('nothing is cancelled once shipped, objection or not', () => {
    expect(cancellationTerms({ ...facts, shipped: true, objection: true })).toMatchObject({ allowed: false });
  });
});
