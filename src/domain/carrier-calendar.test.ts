import { describe, expect, it } from 'vitest';
import {
  earliestVialShipmentDate,
  fedexHolidays,
  firstShipmentDate,
  nextShipmentDates,
  type ShipmentDateReason,
  shipmentDateMessages,
  shipmentDateProblem,
  shipmentDatesBetween,
  storeEarliestShipmentDate,
} from './carrier-calendar';

const fedex = { method: 'FedEx' } as const;
const reasonOf = (date: string, rules: Parameters<typeof shipmentDateProblem>[1] = fedex) =>
  shipmentDateProblem(date, rules)?.reason ?? null;

describe('FedEx no-service holidays are computed for any year', () => {
  it.each([
    [2024, ['2024-01-01', '2024-05-27', '2024-07-04', '2024-09-02', '2024-11-28', '2024-12-25']],
    [2025, ['2025-01-01', '2025-05-26', '2025-07-04', '2025-09-01', '2025-11-27', '2025-12-25']],
    [2026, ['2026-01-01', '2026-05-25', '2026-07-04', '2026-09-07', '2026-11-26', '2026-12-25']],
    [2027, ['2027-01-01', '2027-05-31', '2027-07-04', '2027-09-06', '2027-11-25', '2027-12-25']],
    [2028, ['2028-01-01', '2028-05-29', '2028-07-04', '2028-09-04', '2028-11-23', '2028-12-25']],
    [2029, ['2029-01-01', '2029-05-28', '2029-07-04', '2029-09-03', '2029-11-22', '2029-12-25']],
    [2030, ['2030-01-01', '2030-05-27', '2030-07-04', '2030-09-02', '2030-11-28', '2030-12-25']],
    // Far from the legacy list (2025-2029): still computed, not looked up.
    [2049, ['2049-01-01', '2049-05-31', '2049-07-04', '2049-09-06', '2049-11-25', '2049-12-25']],
  ])('%i', (year, dates) => {
    expect(fedexHolidays(year).map((h) => h.date)).toEqual(dates);
  });
});

describe('a FedEx shipment arrives Tuesday to Saturday', () => {
  it.each([
    ['2026-03-08', 'Sunday', 'weekday'],
    ['2026-03-09', 'Monday', 'weekday'],
    ['2026-03-10', 'Tuesday', null],
    ['2026-03-11', 'Wednesday', null],
    ['2026-03-12', 'Thursday', null],
    ['2026-03-13', 'Friday', null],
    ['2026-03-14', 'Saturday', null],
  ] as const)('%s, a %s: %s', (date, _weekday, reason) => {
    expect(reasonOf(date)).toBe(reason);
  });

  it("refuses Sunday and Monday with the spec's message", () => {
    expect(shipmentDateProblem('2026-03-09', fedex)?.message).toBe(
      'FedEx does not deliver on Sunday and Monday. Please choose a different date from Tuesday to Saturday for shipment arrival',
    );
  });
});

describe('no FedEx shipment arrives on a holiday nor on the day after one', () => {
  it.each<[string, string, ShipmentDateReason | null]>([
    ['2024-11-28', 'Thanksgiving on the 28th', 'holiday'],
    ['2024-11-29', 'the day after Thanksgiving on the 28th', 'dayAfterHoliday'],
    ['2029-11-22', 'Thanksgiving on the 22nd', 'holiday'],
    ['2029-11-23', 'the day after Thanksgiving on the 22nd', 'dayAfterHoliday'],
    ['2029-11-24', 'the Saturday two days after Thanksgiving', null],
    ['2026-05-26', 'the day after Memorial Day on the 25th', 'dayAfterHoliday'],
    ['2027-06-01', 'the day after Memorial Day on the 31st, in June', 'dayAfterHoliday'],
    ['2027-06-02', 'two days after Memorial Day on the 31st', null],
    ['2026-09-08', 'the day after Labor Day', 'dayAfterHoliday'],
    ['2028-07-04', 'July 4 on a Tuesday', 'holiday'],
    ['2028-07-05', 'the day after July 4 on a Tuesday', 'dayAfterHoliday'],
    ['2025-07-05', 'the Saturday after July 4 on a Friday', 'dayAfterHoliday'],
    ['2026-07-04', 'July 4 on a Saturday', 'holiday'],
    ['2026-07-03', 'the Friday before July 4 on a Saturday (no observed day)', null],
    ['2026-07-07', 'the Tuesday after July 4 on a Saturday', null],
    ['2027-07-06', 'the Tuesday after July 4 on a Sunday', null],
    ['2026-12-25', 'Christmas on a Friday', 'holiday'],
    ['2026-12-26', 'the Saturday after Christmas on a Friday', 'dayAfterHoliday'],
    ['2027-12-25', 'Christmas on a Saturday', 'holiday'],
    ['2027-12-24', 'Christmas Eve, a Friday', null],
    ['2029-12-26', 'the day after Christmas on a Tuesday', 'dayAfterHoliday'],
    ['2027-01-01', "New Year's Day on a Friday", 'holiday'],
    ['2027-01-02', "the Saturday after New Year's Day on a Friday", 'dayAfterHoliday'],
    ['2028-01-01', "New Year's Day on a Saturday", 'holiday'],
    ['2030-01-01', "New Year's Day on a Tuesday", 'holiday'],
    ['2030-01-02', "the day after New Year's Day on a Tuesday", 'dayAfterHoliday'],
  ])('%s, %s: %s', (date, _what, reason) => {
    expect(reasonOf(date)).toBe(reason);
  });

  it("refuses a holiday with the spec's message", () => {
    expect(shipmentDateProblem('2025-12-25', fedex)?.message).toBe(
      'FedEx does not deliver on Holidays. Please choose a different date from holiday for shipment arrival.',
    );
  });
});

describe('year ends and leap days', () => {
  it.each<[string, string, ShipmentDateReason | null]>([
    ['2025-12-31', 'New Year’s Eve on a Wednesday', null],
    ['2027-12-31', 'New Year’s Eve on a Friday', null],
    ['2030-12-31', 'New Year’s Eve on a Tuesday', null],
    ['2028-02-29', 'a leap day (Tuesday)', null],
    ['2028-03-01', 'the day after a leap day', null],
    ['2027-02-29', 'a leap day in a common year', 'invalid'],
    ['2100-02-29', 'a leap day of a century year that is not a leap year', 'invalid'],
    ['2026-13-01', 'a month 13', 'invalid'],
    ['03/10/2026', 'a date not in ISO form', 'invalid'],
    ['2050-03-01', 'the year 2050', 'invalid'],
    ['2049-12-31', 'the last day before 2050 (a Friday)', null],
  ])('%s, %s: %s', (date, _what, reason) => {
    expect(reasonOf(date)).toBe(reason);
  });

  it("answers an invalid date with the spec's message", () => {
    expect(shipmentDateProblem('2050-01-04', fedex)?.message).toBe('Invalid date');
  });
});

describe('the earliest date and staff blackout dates', () => {
  const rules = { method: 'FedEx', earliest: '2026-03-12', blackoutDates: ['2026-03-13'] } as const;

  it('refuses a date before the earliest one', () => {
    expect(reasonOf('2026-03-11', rules)).toBe('tooEarly');
    expect(shipmentDateProblem('2026-03-11', rules)?.message).toBe(shipmentDateMessages.tooEarly);
  });

  it('accepts the earliest date itself', () => {
    expect(reasonOf('2026-03-12', rules)).toBeNull();
  });

  it('refuses a staff blackout date for FedEx', () => {
    expect(reasonOf('2026-03-13', rules)).toBe('blackout');
  });

  it('gives ACT VIP no date rule beyond the earliest date', () => {
    const vip = { ...rules, method: 'ACT VIP' } as const;
    expect(reasonOf('2026-03-11', vip)).toBe('tooEarly');
    expect(reasonOf('2026-03-13', vip)).toBeNull();
    expect(reasonOf('2026-03-15', vip)).toBeNull();
    expect(reasonOf('2026-12-25', vip)).toBeNull();
    expect(reasonOf('2050-01-01', vip)).toBe('invalid');
  });
});

describe('date lists', () => {
  it('lists the allowed dates of a range: Thanksgiving week 2026', () => {
    expect(shipmentDatesBetween('2026-11-22', '2026-12-01', fedex)).toEqual([
      '2026-11-24',
      '2026-11-25',
      '2026-11-28',
      '2026-12-01',
    ]);
  });

  it('starts a range at the earliest date and skips blackout dates', () => {
    expect(
      shipmentDatesBetween('2026-03-01', '2026-03-14', {
        method: 'FedEx',
        earliest: '2026-03-11',
        blackoutDates: ['2026-03-12'],
      }),
    ).toEqual(['2026-03-11', '2026-03-13', '2026-03-14']);
  });

  it('gives the next N allowed dates across a year end', () => {
    expect(nextShipmentDates('2026-12-24', 5, fedex)).toEqual([
      '2026-12-24',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-05',
    ]);
  });

  it('stops an unbounded range at about a year', () => {
    expect(shipmentDatesBetween('2026-01-01', '2049-12-31', fedex).length).toBeLessThan(300);
  });
});

describe('the earliest shipment date of a vial release', () => {
  const today = '2026-03-02';

  it.each([
    ['covered by bio-insurance vials: today + 2 days', true, '2020-01-01', '2026-03-01', '2026-03-04'],
    ['covered even when banked yesterday', true, '2026-03-01', null, '2026-03-04'],
    ['not covered, banked long ago: today + 21 days', false, '2020-01-01', null, '2026-03-23'],
    ['never banked nor purchased: today + 21 days', false, null, null, '2026-03-23'],
    ['banked 10 days ago: banked + 42 days', false, '2026-02-20', null, '2026-04-03'],
    ['banked 21 days ago: both rules give the same day', false, '2026-02-09', null, '2026-03-23'],
    ['bio-insurance bought 5 days from now: purchase + 21 days', false, null, '2026-03-07', '2026-03-28'],
    ['the latest of the three wins (purchase)', false, '2026-02-20', '2026-03-20', '2026-04-10'],
    ['across a leap day', false, '2028-01-20', null, '2028-03-02'],
  ])('%s', (_rule, coveredByBioInsurance, dateBankedIn, lastBioInsurancePurchasedDate, expected) => {
    expect(
      earliestVialShipmentDate({ today, coveredByBioInsurance, dateBankedIn, lastBioInsurancePurchasedDate }),
    ).toBe(expected);
  });
});

describe("the store's earliest arrival date", () => {
  it.each([
    ['2026-03-06', '2026-03-10', 'a Friday: Monday is 3 days ahead, so Tuesday'],
    ['2026-03-03', '2026-03-06', 'a Tuesday: Friday, 3 days ahead'],
    ['2026-11-23', '2026-11-28', 'the Monday of Thanksgiving week: Saturday (Thursday and Friday refused)'],
    ['2026-12-29', '2027-01-05', 'across the year end, past the day after New Year'],
  ])('from %s it is %s (%s)', (today, expected) => {
    const earliest = storeEarliestShipmentDate(today);
    expect(firstShipmentDate(earliest, { method: 'FedEx', earliest })).toBe(expected);
  });
});
