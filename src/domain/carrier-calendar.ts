import { addDays, parseIsoDate } from './dates';

/**
 * The carrier calendar (DESIGN.md section 6): which days a shipment may arrive. FedEx delivers
 * Tuesday to Saturday, never on its six no-service holidays nor on the day after one; the holidays
 * are computed for any year, on the day itself (a holiday on a weekend moves nothing). Staff add
 * blackout dates, and a vial release has an earliest date. ACT VIP has no date rule beyond the
 * earliest date. Dates are `YYYY-MM-DD`; "today" is always a parameter.
 */

export const SHIPPING_METHODS = ['FedEx', 'ACT VIP'] as const;
export type ShippingMethod = (typeof SHIPPING_METHODS)[number];

/** The first year a shipment date may not reach (the legacy "year must be below 2050" rule). */
export const SHIPMENT_YEAR_LIMIT = 2050;

export const shipmentDateMessages = {
  required: 'Please enter Shipment Date',
  invalid: 'Invalid date',
  weekday:
    'FedEx does not deliver on Sunday and Monday. Please choose a different date from Tuesday to Saturday for shipment arrival',
  holiday:
    'FedEx does not deliver on Holidays. Please choose a different date from holiday for shipment arrival.',
  dayAfterHoliday:
    'FedEx does not deliver on the day after a holiday. Please choose a different date from the day after a holiday for shipment arrival.',
  tooEarly: 'Please contact ACT directly by phone or email for this stem cell request date.',
  blackout: 'Please contact ACT directly by phone or email for this stem cell request date.',
} as const;

export type ShipmentDateReason = Exclude<keyof typeof shipmentDateMessages, 'required'>;

export interface ShipmentDateProblem {
  reason: ShipmentDateReason;
  message: string;
}

export type FedExHolidayName =
  | "New Year's Day"
  | 'Memorial Day'
  | 'Independence Day'
  | 'Labor Day'
  | 'Thanksgiving'
  | 'Christmas Day';

export interface FedExHoliday {
  date: string;
  name: FedExHolidayName;
}

function iso(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 0 = Sunday ... 6 = Saturday. */
export function weekdayOf(date: string): number {
  const parts = parseIsoDate(date);
  if (!parts) throw new Error(`not an ISO date: ${date}`);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day)).getUTCDay();
}

/** The `nth` (1-based) given weekday of a month. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  const first = weekdayOf(iso(year, month, 1));
  return iso(year, month, 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7);
}

function lastWeekday(year: number, month: number, weekday: number): string {
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = weekdayOf(iso(year, month, lastDay));
  return iso(year, month, lastDay - ((last - weekday + 7) % 7));
}

const MONDAY = 1;
const THURSDAY = 4;

/** FedEx's six no-service holidays of a year, in date order. */
export function fedexHolidays(year: number): FedExHoliday[] {
  return [
    { date: iso(year, 1, 1), name: "New Year's Day" },
    { date: lastWeekday(year, 5, MONDAY), name: 'Memorial Day' },
    { date: iso(year, 7, 4), name: 'Independence Day' },
    { date: nthWeekday(year, 9, MONDAY, 1), name: 'Labor Day' },
    { date: nthWeekday(year, 11, THURSDAY, 4), name: 'Thanksgiving' },
    { date: iso(year, 12, 25), name: 'Christmas Day' },
  ];
}

// Holidays of a year never change: computed once per year asked.
const holidaysByYear = new Map<number, Map<string, FedExHolidayName>>();

/** The FedEx holiday on this date, or null. */
export function fedexHolidayOn(date: string): FedExHolidayName | null {
  const year = Number(date.slice(0, 4));
  let holidays = holidaysByYear.get(year);
  if (!holidays) {
    holidays = new Map(fedexHolidays(year).map((h) => [h.date, h.name]));
    holidaysByYear.set(year, holidays);
  }
  return holidays.get(date) ?? null;
}

export interface ShipmentDateRules {
  method: ShippingMethod;
  /** The first date allowed (a vial release's earliest date, or the store's today + 3); none: any. */
  earliest?: string;
  /** Staff blackout dates (`YYYY-MM-DD`): no FedEx shipment arrives on them. */
  blackoutDates?: readonly string[];
}

/** Why a date is not a FedEx delivery day, or null when FedEx delivers on it. */
export function fedexDeliveryProblem(
  date: string,
  blackoutDates: readonly string[] = [],
): ShipmentDateProblem | null {
  const weekday = weekdayOf(date);
  if (weekday === 0 || weekday === MONDAY) return problem('weekday');
  if (fedexHolidayOn(date)) return problem('holiday');
  if (fedexHolidayOn(addDays(date, -1))) return problem('dayAfterHoliday');
  if (blackoutDates.includes(date)) return problem('blackout');
  return null;
}

/**
 * Why a shipment date may not be chosen, or null when it may. The checks run in the order the
 * client should hear them: a date that is not a date, then too early, then the carrier's days.
 */
export function shipmentDateProblem(date: string, rules: ShipmentDateRules): ShipmentDateProblem | null {
  const parts = parseIsoDate(date);
  if (!parts || parts.year >= SHIPMENT_YEAR_LIMIT || parts.year < 1900) return problem('invalid');
  if (rules.earliest !== undefined && date < rules.earliest) return problem('tooEarly');
  if (rules.method === 'ACT VIP') return null;
  return fedexDeliveryProblem(date, rules.blackoutDates);
}

export function isShipmentDate(date: string, rules: ShipmentDateRules): boolean {
  return shipmentDateProblem(date, rules) === null;
}

function problem(reason: ShipmentDateReason): ShipmentDateProblem {
  return { reason, message: shipmentDateMessages[reason] };
}

/** The most days a date list walks: a year and a bit, whatever the rules. */
const MAX_DAYS_WALKED = 400;

/** The allowed shipment dates from `from` to `to`, both included (at most about a year). */
export function shipmentDatesBetween(from: string, to: string, rules: ShipmentDateRules): string[] {
  const dates: string[] = [];
  let date = rules.earliest !== undefined && rules.earliest > from ? rules.earliest : from;
  for (let walked = 0; date <= to && walked < MAX_DAYS_WALKED; walked++) {
    if (isShipmentDate(date, rules)) dates.push(date);
    date = addDays(date, 1);
  }
  return dates;
}

/** The next `count` allowed shipment dates on or after `from`. */
export function nextShipmentDates(from: string, count: number, rules: ShipmentDateRules): string[] {
  const dates: string[] = [];
  let date = rules.earliest !== undefined && rules.earliest > from ? rules.earliest : from;
  for (let walked = 0; dates.length < count && walked < MAX_DAYS_WALKED; walked++) {
    if (isShipmentDate(date, rules)) dates.push(date);
    date = addDays(date, 1);
  }
  return dates;
}

/** The first allowed shipment date on or after `from` (null only when a year holds none). */
export function firstShipmentDate(from: string, rules: ShipmentDateRules): string | null {
  return nextShipmentDates(from, 1, rules)[0] ?? null;
}

/** Notice the lab needs, in days, to release vials (DESIGN.md section 6). */
export const vialReleaseNotice = {
  /** Every vial of the order is covered by pre-paid bio-insurance vials. */
  coveredByBioInsurance: 2,
  standard: 21,
  afterBanking: 42,
  afterBioInsurancePurchase: 21,
} as const;

export interface VialReleaseTiming {
  today: string;
  /** Every vial of the order is covered by the client's pre-paid bio-insurance vials. */
  coveredByBioInsurance: boolean;
  dateBankedIn: string | null;
  lastBioInsurancePurchasedDate: string | null;
  /** A physician's request: no arrival before the client's objection window lets it ship. */
  notBefore?: string;
}

/**
 * The earliest shipment date of a vial release: today + 2 days when the order is fully covered
 * by pre-paid bio-insurance vials; otherwise the latest of today + 21 days, the banked date + 42
 * days and the last bio-insurance purchase + 21 days; never before `notBefore` when given.
 */
export function earliestVialShipmentDate(timing: VialReleaseTiming): string {
  const candidates = timing.notBefore ? [timing.notBefore] : [];
  if (timing.coveredByBioInsurance) {
    candidates.push(addDays(timing.today, vialReleaseNotice.coveredByBioInsurance));
    return candidates.reduce((latest, date) => (date > latest ? date : latest));
  }
  candidates.push(addDays(timing.today, vialReleaseNotice.standard));
  if (timing.dateBankedIn) candidates.push(addDays(timing.dateBankedIn, vialReleaseNotice.afterBanking));
  if (timing.lastBioInsurancePurchasedDate) {
    candidates.push(
      addDays(timing.lastBioInsurancePurchasedDate, vialReleaseNotice.afterBioInsurancePurchase),
    );
  }
  return candidates.reduce((latest, date) => (date > latest ? date : latest));
}

/** Days ahead of today the store's earliest arrival date is. */
export const STORE_NOTICE_DAYS = 3;

/** The store's earliest arrival date: 3 days from today (the carrier's days apply on top). */
export function storeEarliestShipmentDate(today: string): string {
  return addDays(today, STORE_NOTICE_DAYS);
}
