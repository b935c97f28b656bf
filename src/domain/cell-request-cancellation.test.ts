import { describe, expect, it } from 'vitest';
import {
  cancellationCutoff,
  cancellationLines,
  cancellationTerms,
  cutoffText,
  isBusinessDay,
} from './cell-request-cancellation';

describe('the cancellation cutoff is 2:00 PM Eastern two business days before the delivery date', () => {
  it.each([
    ['2026-12-09', '2026-12-07T19:00:00.000Z', 'a Wednesday delivery: Monday, winter time'],
    ['2026-12-14', '2026-12-10T19:00:00.000Z', 'a Monday delivery: the Thursday before, over the weekend'],
    [
      '2026-03-10',
      '2026-03-06T19:00:00.000Z',
      'the Tuesday after summer time starts: the Friday before it, EST',
    ],
    ['2026-03-11', '2026-03-09T18:00:00.000Z', 'the Wednesday after summer time starts: Monday, EDT'],
    [
      '2026-11-03',
      '2026-10-30T18:00:00.000Z',
      'the Tuesday after winter time returns: the Friday before, EDT',
    ],
    ['2026-11-04', '2026-11-02T19:00:00.000Z', 'the Wednesday after winter time returns: Monday, EST'],
    [
      '2026-11-30',
      '2026-11-25T19:00:00.000Z',
      'the Monday after Thanksgiving: Friday counts, Thursday does not',
    ],
    ['2026-12-29', '2026-12-24T19:00:00.000Z', 'Christmas on a Friday is skipped'],
    ['2027-01-04', '2026-12-30T19:00:00.000Z', "New Year's Day on a Friday is skipped, across the year"],
    ['2026-05-27', '2026-05-22T18:00:00.000Z', 'Memorial Day is skipped'],
  ])('delivery %s: %s (%s)', (delivery, cutoff) => {
    expect(cancellationCutoff(delivery).toISOString()).toBe(cutoff);
  });

  it('reads as people say it', () => {
    expect(cutoffText('2026-12-07T19:00:00.000Z')).toBe('2:00 PM Eastern on 12/07/2026');
  });

  it('counts Monday to Friday less the carrier holidays as business days', () => {
    expect(isBusinessDay('2026-11-27')).toBe(true);
    expect(isBusinessDay('2026-11-26')).toBe(false);
    expect(isBusinessDay('2026-11-28')).toBe(false);
    expect(isBusinessDay('2026-11-29')).toBe(false);
  });
});

describe('cancelling refunds, keeps and forfeits to the cent', () => {
  // 3 vials, 1 pre-paid: 2 x $500.00 + CPP 3 x $25.00 + FedEx $90.00 = $1,165.00, card fee 3% $34.95.
  const card = { paymentId: 'order', totalCents: 119_995, feeCents: 3_495 };
  const facts = {
    deliveryDate: '2026-12-09',
    shipped: false,
    vials: 3,
    prePaidVials: 1,
    charges: [card],
    replacementFeeCents: 25_000,
  };
  const atCutoff = new Date('2026-12-07T19:00:00.000Z');
  const justAfter = new Date('2026-12-07T19:00:00.001Z');

  it('up to the cutoff: everything refunded and the pre-paid vial given back', () => {
    expect(cancellationTerms({ ...facts, now: atCutoff })).toEqual({
      allowed: true,
      phase: 'full',
      cutoff: '2026-12-07T19:00:00.000Z',
      refunds: [{ paymentId: 'order', cents: 119_995 }],
      refundCents: 119_995,
      keptCents: 0,
      paidVials: 2,
      returnedVials: 1,
      forfeitedVials: 0,
    });
  });

  it('after it, by card: $250.00 kept a paid vial with its 3% fee, the rest refunded, the pre-paid vial forfeited', () => {
    const terms = cancellationTerms({ ...facts, now: justAfter });
    expect(terms).toMatchObject({
      phase: 'late',
      refunds: [{ paymentId: 'order', cents: 68_495 }],
      refundCents: 68_495,
      keptCents: 51_500,
      returnedVials: 0,
      forfeitedVials: 1,
    });
    if (!terms.allowed) throw new Error('refused');
    expect(cancellationLines(terms, 25_000)).toEqual([
      '$684.95 is refunded to the account you paid with.',
      '$515.00 is kept as the replacement fee: $250.00 for each of the 2 vials you paid for, with its card fee.',
      'Your 1 pre-paid vial is forfeited.',
    ]);
  });

  it('after it, by ACH: $500.00 kept for two paid vials, no fee', () => {
    const ach = { paymentId: 'order', totalCents: 116_500, feeCents: 0 };
    expect(cancellationTerms({ ...facts, charges: [ach], now: justAfter })).toMatchObject({
      refundCents: 66_500,
      keptCents: 50_000,
    });
  });

  it('after it, an ACT VIP price charged later is refunded whole once the vials’ fee is kept', () => {
    const vip = { paymentId: 'vip', totalCents: 30_900, feeCents: 900 };
    expect(cancellationTerms({ ...facts, charges: [card, vip], now: justAfter })).toMatchObject({
      refunds: [
        { paymentId: 'order', cents: 68_495 },
        { paymentId: 'vip', cents: 30_900 },
      ],
      refundCents: 99_395,
      keptCents: 51_500,
    });
  });

  it('after it, all vials pre-paid: nothing kept, the CPP and shipping refunded, the vials forfeited', () => {
    const cppAndShipping = { paymentId: 'order', totalCents: 17_510, feeCents: 510 };
    expect(
      cancellationTerms({ ...facts, prePaidVials: 3, charges: [cppAndShipping], now: justAfter }),
    ).toMatchObject({ refundCents: 17_510, keptCents: 0, forfeitedVials: 3 });
  });

  it('once shipped: refused, whatever the time', () => {
    expect(cancellationTerms({ ...facts, shipped: true, now: new Date('2026-12-01T12:00:00Z') })).toEqual({
      allowed: false,
      reason: 'shipped',
      cutoff: '2026-12-07T19:00:00.000Z',
    });
  });
});
