import { createHash } from 'node:crypto';
import { vialShipment } from '../../../domain/price-book';
import { isUsStateCode } from '../../../domain/us-states';
import {
  type AddressCheck,
  type CarrierAdapter,
  type CarrierAddress,
  type CarrierEvent,
  matchesInput,
  type QuoteRequest,
  type RateQuote,
  type ShipmentRequest,
  type ShipmentResult,
  type TrackResult,
} from './carrier-adapter';
import { renderLabelPdf } from './label-pdf';

/**
 * The offline carrier (the default): no network, the same answer for the same input. Addresses are
 * standardised the way FedEx does (upper case, USPS street suffixes, directionals and unit words,
 * ZIP+4), and an address whose ZIP does not belong to its state is invalid. Rates come from a
 * zone and weight table for PRIORITY_OVERNIGHT from Florida, plus an 18% fuel surcharge: realistic
 * in size, not FedEx's tariff.
 *
 * Inputs that exercise the other outcomes (for QA):
 *   a street containing NOWHERE, or ZIP 00000      invalid
 *   destination ZIP 99999 (Alaska)                  the address verifies; the quote is unavailable
 */

const SUFFIXES: Record<string, string> = {
  ALLEY: 'ALY',
  AVENUE: 'AVE',
  BOULEVARD: 'BLVD',
  CIRCLE: 'CIR',
  COURT: 'CT',
  DRIVE: 'DR',
  EXPRESSWAY: 'EXPY',
  HIGHWAY: 'HWY',
  LANE: 'LN',
  PARKWAY: 'PKWY',
  PLACE: 'PL',
  PLAZA: 'PLZ',
  ROAD: 'RD',
  SQUARE: 'SQ',
  STREET: 'ST',
  TERRACE: 'TER',
  TRAIL: 'TRL',
  WAY: 'WAY',
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
  NORTHEAST: 'NE',
  NORTHWEST: 'NW',
  SOUTHEAST: 'SE',
  SOUTHWEST: 'SW',
  APARTMENT: 'APT',
  BUILDING: 'BLDG',
  FLOOR: 'FL',
  ROOM: 'RM',
  SUITE: 'STE',
  UNIT: 'UNIT',
};

/**
 * The state of each 3-digit ZIP prefix range (USPS), first prefix to last. Prefixes in no range
 * (000-004, the military and territories) are not delivered to by this bank's FedEx service.
 */
const ZIP3_STATES: Array<[number, number, string]> = [
  [5, 5, 'NY'],
  [10, 27, 'MA'],
  [28, 29, 'RI'],
  [30, 38, 'NH'],
  [39, 49, 'ME'],
  [50, 59, 'VT'],
  [60, 69, 'CT'],
  [70, 89, 'NJ'],
  [100, 149, 'NY'],
  [150, 196, 'PA'],
  [197, 199, 'DE'],
  [200, 200, 'DC'],
  [201, 201, 'VA'],
  [202, 205, 'DC'],
  [206, 219, 'MD'],
  [220, 246, 'VA'],
  [247, 268, 'WV'],
  [270, 289, 'NC'],
  [290, 299, 'SC'],
  [300, 319, 'GA'],
  [320, 349, 'FL'],
  [350, 369, 'AL'],
  [370, 385, 'TN'],
  [386, 397, 'MS'],
  [398, 399, 'GA'],
  [400, 427, 'KY'],
  [430, 459, 'OH'],
  [460, 479, 'IN'],
  [480, 499, 'MI'],
  [500, 528, 'IA'],
  [530, 549, 'WI'],
  [550, 567, 'MN'],
  [569, 569, 'DC'],
  [570, 577, 'SD'],
  [580, 588, 'ND'],
  [590, 599, 'MT'],
  [600, 629, 'IL'],
  [630, 658, 'MO'],
  [660, 679, 'KS'],
  [680, 693, 'NE'],
  [700, 715, 'LA'],
  [716, 729, 'AR'],
  [730, 749, 'OK'],
  [750, 799, 'TX'],
  [800, 816, 'CO'],
  [820, 831, 'WY'],
  [832, 838, 'ID'],
  [840, 847, 'UT'],
  [850, 865, 'AZ'],
  [870, 884, 'NM'],
  [885, 885, 'TX'],
  [889, 898, 'NV'],
  [900, 961, 'CA'],
  [967, 968, 'HI'],
  [970, 979, 'OR'],
  [980, 994, 'WA'],
  [995, 999, 'AK'],
];

export function stateOfZip(zip: string): string | null {
  const prefix = Number(zip.slice(0, 3));
  return ZIP3_STATES.find(([first, last]) => prefix >= first && prefix <= last)?.[2] ?? null;
}

/** FedEx zone of each destination state from the laboratory in Florida (an approximation by state). */
const ZONE_BY_STATE: Record<string, number> = {};
for (const [zone, states] of [
  [2, 'FL'],
  [3, 'GA AL'],
  [4, 'SC TN MS'],
  [5, 'NC KY LA AR VA WV OH IN DC MD DE'],
  [6, 'PA NJ NY CT RI MA VT NH ME IL MI WI MO IA MN TX OK KS NE'],
  [7, 'ND SD CO NM WY MT'],
  [8, 'AZ UT NV ID CA OR WA'],
  [9, 'AK HI'],
] as const) {
  for (const state of states.split(' ')) ZONE_BY_STATE[state] = zone;
}

/** PRIORITY_OVERNIGHT list rates in cents by billed pound (1 to 5) and zone (2 to 8). */
const RATES_BY_POUND: Record<number, number[]> = {
  2: [4_890, 5_460, 5_920, 6_350, 6_740],
  3: [5_630, 6_320, 6_900, 7_440, 7_930],
  4: [6_310, 7_150, 7_870, 8_520, 9_130],
  5: [6_840, 7_780, 8_610, 9_370, 10_080],
  6: [7_290, 8_360, 9_300, 10_150, 10_940],
  7: [7_610, 8_740, 9_760, 10_690, 11_550],
  8: [7_980, 9_170, 10_240, 11_230, 12_160],
};
const EXTRA_POUND_CENTS: Record<number, number> = {
  2: 400,
  3: 460,
  4: 550,
  5: 620,
  6: 700,
  7: 740,
  8: 790,
};
/** Alaska and Hawaii: zone 8 x 1.35. */
const REMOTE_ZONE_BASIS_POINTS = 13_500;
const FUEL_SURCHARGE_BASIS_POINTS = 1_800;

const UNAVAILABLE_ZIP = '99999';

function baseRateCents(zone: number, pounds: number): number {
  const rateZone = Math.min(zone, 8);
  const table = RATES_BY_POUND[rateZone] as number[];
  const listed =
    pounds <= 5
      ? (table[pounds - 1] as number)
      : (table[4] as number) + (pounds - 5) * (EXTRA_POUND_CENTS[rateZone] as number);
  return zone > 8 ? Math.round((listed * REMOTE_ZONE_BASIS_POINTS) / 10_000) : listed;
}

/** A line as FedEx standardises it: upper case, USPS abbreviations, no punctuation but # and -. */
export function standardStreetLine(line: string): string {
  const words = line
    .toUpperCase()
    .replace(/\./g, '')
    .replace(/[^A-Z0-9#\- ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  return words.map((word) => SUFFIXES[word] ?? word).join(' ');
}

/** FNV-1a, 32 bits: a stable number from text, for the ZIP+4 add-on. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

function standardize(address: CarrierAddress): CarrierAddress | null {
  const zip = address.zip.trim();
  const zipMatch = /^(\d{5})(?:-(\d{4}))?$/.exec(zip);
  const state = address.state.trim().toUpperCase();
  const streetLines = address.streetLines.map(standardStreetLine).filter(Boolean);
  const city = address.city.trim().toUpperCase().replace(/\s+/g, ' ');
  if (!zipMatch || address.country !== 'US' || !isUsStateCode(state)) return null;
  const zip5 = zipMatch[1] as string;
  if (zip5 === '00000' || stateOfZip(zip5) !== state) return null;
  if (streetLines.length === 0 || city === '' || streetLines.some((l) => l.includes('NOWHERE'))) return null;
  const addOn = zipMatch[2] ?? String(1000 + (fnv1a(`${streetLines[0]}|${zip5}`) % 9000));
  return { streetLines, city, state, zip: `${zip5}-${addOn}`, country: 'US' };
}

/** A 12-digit tracking number, the same for the same reference (a retry makes the same shipment). */
export function offlineTrackingNumber(reference: string): string {
  const digits = createHash('sha256')
    .update(`offline-shipment:${reference}`)
    .digest('hex')
    .replace(/[a-f]/g, '');
  return `7${digits.padEnd(11, '0').slice(0, 11)}`;
}

/**
 * The offline carrier's scans, as time passes from the label (in carrier hours: an hour by
 * default, shortened for demos and browser tests): picked up after 1, through the Memphis hub
 * after 5, out for delivery after 18, delivered after 22.
 */
const OFFLINE_SCANS: Array<{
  afterHours: number;
  status: CarrierEvent['status'];
  place?: string;
  description: string;
}> = [
  { afterHours: 1, status: 'picked_up', place: 'SUNRISE, FL', description: 'Picked up' },
  { afterHours: 5, status: 'in_transit', place: 'MEMPHIS, TN', description: 'Departed FedEx hub' },
  { afterHours: 18, status: 'out_for_delivery', description: 'On FedEx vehicle for delivery' },
  { afterHours: 22, status: 'delivered', description: 'Delivered' },
];

export function createOfflineCarrier(options: { hourMs?: number } = {}): CarrierAdapter {
  const hourMs = options.hourMs ?? 60 * 60_000;
  return {
    name: 'offline',
    async createShipment(request: ShipmentRequest): Promise<ShipmentResult> {
      if (request.recipient.zip.startsWith(UNAVAILABLE_ZIP)) return { outcome: 'unavailable' };
      if (standardize(request.recipient) === null) {
        return { outcome: 'refused', message: 'FedEx cannot deliver to this address.' };
      }
      const trackingNumber = offlineTrackingNumber(request.reference);
      return {
        outcome: 'created',
        trackingNumber,
        labelPdf: await renderLabelPdf(request, trackingNumber, new Date()),
      };
    },
    async track({ trackingNumber, shippedAt, now, destination }): Promise<TrackResult> {
      if (!/^7\d{11}$/.test(trackingNumber)) return { outcome: 'unknown' };
      const place = destination
        ? `${destination.city.toUpperCase()}, ${destination.state.toUpperCase()}`
        : '';
      const events = OFFLINE_SCANS.map((scan) => ({
        at: new Date(shippedAt.getTime() + scan.afterHours * hourMs),
        status: scan.status,
        place: scan.place ?? place,
        description: scan.description,
      })).filter((event) => event.at.getTime() <= now.getTime());
      return { outcome: 'tracked', events };
    },
    async validateAddress(address): Promise<AddressCheck> {
      const standardized = standardize(address);
      if (standardized === null) return { outcome: 'invalid' };
      return matchesInput(address, standardized)
        ? { outcome: 'verified', address: standardized }
        : { outcome: 'suggested', suggestion: standardized };
    },
    async quote(request: QuoteRequest): Promise<RateQuote> {
      const recipient = request.recipient;
      const zone = ZONE_BY_STATE[recipient.state.trim().toUpperCase()];
      if (zone === undefined || recipient.zip.startsWith(UNAVAILABLE_ZIP)) return { outcome: 'unavailable' };
      // Express bills any fraction of a pound as the next pound: 1.06 lb is billed as 2 lb.
      const pounds = Math.ceil(vialShipment.weightLb);
      const base = baseRateCents(zone, pounds);
      const fuel = Math.round((base * FUEL_SURCHARGE_BASIS_POINTS) / 10_000);
      return { outcome: 'quoted', netChargeCents: base + fuel };
    },
  };
}
