import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipmentDateMessages, weekdayOf } from '../../../domain/carrier-calendar';
import { todayFor } from '../../../domain/client';
import { addDays } from '../../../domain/dates';
import { shippingMessages } from '../../../domain/shipping';
import { weekdayFrom } from '../../testing/dates';
import { addReleaseClient } from '../../testing/form-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { setShipmentBlackoutDates } from './shipment-calendar-repository';

let t: TestApp;
/** The same app but for a carrier that cannot be reached. */
let down: TestApp;
let jane: string;
let john: string;
let maria: string;
let david: string;
// The test app's clock starts now: its today, known before the tables below are built.
const today = todayFor(new Date());

beforeAll(async () => {
  [t, down] = await Promise.all([
    startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' }),
    startTestApp(
      {},
      {
        carrier: (real) => ({
          name: real.name,
          validateAddress: async () => ({ outcome: 'unavailable' }),
          quote: async () => ({ outcome: 'unavailable' }),
          createShipment: async () => ({ outcome: 'unavailable' }),
          track: async () => ({ outcome: 'unavailable' }),
        }),
      },
    ),
  ]);
  jane = await t.signIn('ACT10001');
  john = await t.signIn('ACT10002');
  maria = await t.signInPhysician('PHY20001');
  david = await t.signInPhysician('PHY20002');
  if (todayFor(t.clock.now()) !== today) throw new Error('the tests started across midnight; run them again');
});
afterAll(() => Promise.all([t.close(), down.close()]));

const NOT_FOUND = { error: 'Not found', code: 'NOT_FOUND' };

const post = (url: string, cookie: string | undefined, payload: unknown, on: TestApp = t) =>
  on.app.inject({
    method: 'POST',
    url: `/api/pay/${url}`,
    headers: cookie ? { cookie } : {},
    payload: payload as Record<string, unknown>,
  });
const get = (url: string, cookie: string, query: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/pay/${url}`, headers: { cookie }, query });

const brickell = {
  Country: 'United States',
  Street: '1200 Brickell Avenue',
  City: 'Miami',
  State: 'FL',
  ZipCode: '33131',
  Phone: '3055550142',
};
const manhattan = {
  ...brickell,
  Street: '160 East 56th Street',
  City: 'New York',
  State: 'NY',
  ZipCode: '10022',
};
const toronto = {
  ...brickell,
  Country: 'Canada',
  Street: '100 King St W',
  City: 'Toronto',
  State: 'ON',
  ZipCode: 'M5X 1A9',
};

describe('POST /api/pay/get_verifyAddressWithFedex', () => {
  it("answers FedEx's standardized address as a suggestion, then verifies it once accepted", async () => {
    const first = await post('get_verifyAddressWithFedex', jane, brickell);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({
      AddressFedExVerified: false,
      output: {
        resolvedAddresses: [
          {
            streetLinesToken: ['1200 BRICKELL AVE'],
            city: 'MIAMI',
            stateOrProvinceCode: 'FL',
            countryCode: 'US',
            postalCode: expect.stringMatching(/^33131-\d{4}$/),
          },
        ],
      },
    });
    const [suggestion] = body.output.resolvedAddresses;
    const accepted = await post('get_verifyAddressWithFedex', jane, {
      ...brickell,
      Street: suggestion.streetLinesToken[0],
      City: suggestion.city,
      State: suggestion.stateOrProvinceCode,
      ZipCode: suggestion.postalCode,
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({
      message: 'Address Successfully Verified',
      AddressFedExVerified: true,
    });
  });

  it('serves a physician too', async () => {
    expect((await post('get_verifyAddressWithFedex', maria, manhattan)).statusCode).toBe(200);
  });

  it("refuses an address FedEx cannot deliver to with the spec's message", async () => {
    const wrongState = await post('get_verifyAddressWithFedex', jane, { ...brickell, State: 'NY' });
    expect(wrongState.statusCode).toBe(422);
    expect(wrongState.json()).toEqual({
      error:
        'FedEx could not verify this address. Please check the street, city, state and ZIP code, and try again.',
      code: 'ADDRESS_NOT_VERIFIED',
    });
  });

  it('refuses an address outside the United States: FedEx has no international delivery', async () => {
    const response = await post('get_verifyAddressWithFedex', jane, toronto);
    expect(response.statusCode).toBe(422);
    expect(response.json().fields).toEqual({ Country: shippingMessages.fedexDomesticOnly });
  });

  it('answers a clear 503 when FedEx cannot be reached, never a 500', async () => {
    const cookie = await down.signIn('ACT10001');
    const response = await post('get_verifyAddressWithFedex', cookie, brickell, down);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: shippingMessages.addressUnavailable,
      code: 'CARRIER_UNAVAILABLE',
    });
  });

  it('needs a session', async () => {
    expect((await post('get_verifyAddressWithFedex', undefined, brickell)).statusCode).toBe(401);
  });
});

describe('POST /api/pay/get_FedexShipQuote and get_shipping_amount', () => {
  it.each(['get_FedexShipQuote', 'get_shipping_amount'])(
    '%s: FedEx costs the net charge x 1.20, in the spec names',
    async (call) => {
      const response = await post(call, jane, { shipping_method: 'FedEx', ...manhattan });
      expect(response.statusCode).toBe(200);
      // The offline carrier: zone 6, 2 lb, $83.60 + 18% fuel = $98.65; x 1.2 = $118.38.
      expect(response.json()).toEqual({
        shipping_method: 'FedEx',
        ShippingFeeCharged: 118.38,
        ShippingFeeChargedCents: 11_838,
        totalCharge: '118.38 USD',
        totalNetCharge: 98.65,
        priceConfirmedLater: false,
      });
    },
  );

  it.each(['get_FedexShipQuote', 'get_shipping_amount'])(
    "%s: answers the spec's sentences for missing details and for a method it cannot quote",
    async (call) => {
      const missing = await post(call, jane, {
        shipping_method: 'FedEx',
        ...manhattan,
        City: '',
        ZipCode: '',
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({
        error: 'Please enter shipping details',
        fields: { City: 'Please enter City', ZipCode: 'Please enter Zip Code' },
      });
      const method = await post(call, jane, { shipping_method: 'Pigeon', ...manhattan });
      expect(method.statusCode).toBe(400);
      expect(method.json().error).toBe('Please select valid shipping info');
    },
  );

  it('quotes FedEx when no method is named, for a physician acting for a client', async () => {
    const response = await post('get_FedexShipQuote', maria, brickell);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ shipping_method: 'FedEx', ShippingFeeChargedCents: 7_732 });
  });

  it('charges ACT VIP nothing now, its price confirmed later, in the USA and Canada', async () => {
    for (const address of [brickell, toronto]) {
      const response = await post('get_shipping_amount', jane, { shipping_method: 'ACT VIP', ...address });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        shipping_method: 'ACT VIP',
        ShippingFeeCharged: 0,
        ShippingFeeChargedCents: 0,
        totalCharge: '0.00 USD',
        totalNetCharge: null,
        priceConfirmedLater: true,
      });
    }
    const mexico = await post('get_shipping_amount', jane, {
      shipping_method: 'ACT VIP',
      ...brickell,
      Country: 'Mexico',
    });
    expect(mexico.statusCode).toBe(422);
    expect(mexico.json()).toMatchObject({
      error: 'Please enter valid shipping info',
      fields: { Country: shippingMessages.actVipArea },
    });
  });

  it('refuses a FedEx quote for Canada, each call with its own sentence', async () => {
    const amount = await post('get_shipping_amount', jane, { shipping_method: 'FedEx', ...toronto });
    expect(amount.statusCode).toBe(422);
    expect(amount.json().error).toBe('Please enter valid shipping info');
    const quote = await post('get_FedexShipQuote', jane, { shipping_method: 'FedEx', ...toronto });
    expect(quote.json().error).toBe(shippingMessages.quoteFailed);
  });

  it('refuses a FedEx arrival on a Monday, and accepts the Tuesday after', async () => {
    const monday = weekdayFrom(addDays(today, 7), 1);
    const refused = await post('get_FedexShipQuote', jane, { ...manhattan, ShipmentDate: monday });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().fields).toEqual({ ShipmentDate: shipmentDateMessages.weekday });
    const [y, mo, d] = addDays(monday, 1).split('-');
    const tuesday = await post('get_FedexShipQuote', jane, { ...manhattan, ShipmentDate: `${mo}/${d}/${y}` });
    expect(tuesday.statusCode).toBe(200);
  });

  it("answers the spec's quote failure with a 503 when the carrier has no rate (offline ZIP 99999)", async () => {
    const response = await post('get_FedexShipQuote', jane, {
      ...brickell,
      City: 'Anchorage',
      State: 'AK',
      ZipCode: '99999',
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error:
        'FedEx could not give a shipping price for this address. Please choose a different address or ACT VIP service to proceed with the order.',
      code: 'CARRIER_UNAVAILABLE',
    });
  });

  it('answers a clear 503 when FedEx cannot be reached, and ACT VIP still quotes', async () => {
    const cookie = await down.signIn('ACT10001');
    const fedex = await post('get_shipping_amount', cookie, manhattan, down);
    expect(fedex.statusCode).toBe(503);
    expect(fedex.json().error).toBe(shippingMessages.quoteFailed);
    const vip = await post('get_shipping_amount', cookie, { ...manhattan, shipping_method: 'ACT VIP' }, down);
    expect(vip.statusCode).toBe(200);
  });

  it.each([
    ['a state that is not two letters', { State: 'Florida' }, 'State'],
    ['a street with a line break', { Street: '1 Main St\nDROP TABLE' }, 'Street'],
    ['an empty city', { City: '' }, 'City'],
    ['a phone with letters', { Phone: '305-CALL' }, 'Phone'],
    ['an unknown method', { shipping_method: 'UPS' }, 'shipping_method'],
    ['a date that is not one', { ShipmentDate: '02/30/2027' }, 'ShipmentDate'],
    ['a street of 10,000 characters', { Street: 'A'.repeat(10_000) }, 'Street'],
  ])('refuses %s with a 400 on the field', async (_what, change, field) => {
    const response = await post('get_FedexShipQuote', jane, { ...manhattan, ...change });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json().fields)).toContain(field);
  });
});

describe('POST /api/pay/get_ClientVialsService', () => {
  it("uses the client's bio-insurance vials first: fully covered, the release ships 2 days ahead", async () => {
    const response = await post('get_ClientVialsService', jane, { NumberOfVials: 3 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      PayableAmount: 0,
      PayableAmountCents: 0,
      PrePaidVials: 3,
      BioInsuranceVialsUsed: 3,
      LongevityVialsUsed: 0,
      PayableVials: 0,
      EarliestShipmentDate: addDays(today, 2),
    });
  });

  it('then 10 Longevity vials a vial, then $500 a vial; not fully covered by bio-insurance, 21 days ahead', async () => {
    // Jane: 4 Bio-Insurance vials and 25 Longevity vials. 8 vials: 4 + 2 (20 Longevity vials) covered,
    // 2 charged; the 5 Longevity vials left cover nothing.
    const response = await post('get_ClientVialsService', jane, { NumberOfVials: 8, Client_id: 'ACT10001' });
    expect(response.json()).toEqual({
      PayableAmount: 1000,
      PayableAmountCents: 100_000,
      PrePaidVials: 6,
      BioInsuranceVialsUsed: 4,
      LongevityVialsUsed: 20,
      PayableVials: 2,
      EarliestShipmentDate: addDays(today, 21),
    });
  });

  it('10 Longevity vials (1 million cells each) cover one vial of 10 million cells: 2 vials, 1 charged $500.00', async () => {
    const response = await post('get_ClientVialsService', john, { NumberOfVials: 2 });
    expect(response.json()).toMatchObject({
      PayableAmount: 500,
      PayableAmountCents: 50_000,
      PrePaidVials: 1,
      BioInsuranceVialsUsed: 0,
      LongevityVialsUsed: 10,
      PayableVials: 1,
    });
  });

  it('5 Longevity vials cover no vial: 2 vials both charged, $1,000.00, and the 5 are not taken', async () => {
    const client = await addReleaseClient(t.db, { longevityVialsAvailable: 5 });
    const cookie = await t.signIn(client.actId);
    const response = await post('get_ClientVialsService', cookie, { NumberOfVials: 2 });
    expect(response.json()).toMatchObject({
      PayableAmount: 1000,
      PayableAmountCents: 100_000,
      PrePaidVials: 0,
      BioInsuranceVialsUsed: 0,
      LongevityVialsUsed: 0,
      PayableVials: 2,
    });
  });

  it('counts 42 days from a recent banking date', async () => {
    const ana = await t.signIn('ACT10003');
    const response = await post('get_ClientVialsService', ana, { NumberOfVials: 1 });
    // Banked 20 days ago (seed): banked + 42 = today + 22, later than today + 21.
    expect(response.json()).toMatchObject({ PayableAmount: 500, EarliestShipmentDate: addDays(today, 22) });
  });

  it('answers for the client a physician acts for, named or chosen for the session', async () => {
    const named = await post('get_ClientVialsService', maria, { NumberOfVials: 3, Client_id: 'ACT10001' });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toMatchObject({ BioInsuranceVialsUsed: 3 });
    const unchosen = await post('get_ClientVialsService', david, { NumberOfVials: 1 });
    expect(unchosen.statusCode).toBe(404);
  });

  it("answers another client's id, and another physician's client, with the same 404 as an unknown id", async () => {
    const foreign = await post('get_ClientVialsService', john, { NumberOfVials: 1, Client_id: 'ACT10001' });
    const unknown = await post('get_ClientVialsService', john, { NumberOfVials: 1, Client_id: 'ACT99999' });
    const otherPhysician = await post('get_ClientVialsService', david, {
      NumberOfVials: 1,
      Client_id: 'ACT10001',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(NOT_FOUND);
    expect(unknown.body).toBe(foreign.body);
    expect(otherPhysician.body).toBe(foreign.body);
  });

  it.each([
    ['no vials', { NumberOfVials: 0 }],
    ['eleven vials', { NumberOfVials: 11 }],
    ['half a vial', { NumberOfVials: 1.5 }],
    ['vials as text', { NumberOfVials: 'three' }],
    ['no count', {}],
  ])("refuses %s with 'Please Select Dose'", async (_what, body) => {
    const response = await post('get_ClientVialsService', jane, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ NumberOfVials: 'Please Select Dose' });
  });
});

describe('GET /api/pay/get_ShipmentDates', () => {
  it('offers FedEx dates from the earliest date of the release, Tuesday to Saturday only', async () => {
    const response = await get('get_ShipmentDates', jane, {
      from: today,
      to: addDays(today, 40),
      method: 'FedEx',
      NumberOfVials: '2',
    });
    expect(response.statusCode).toBe(200);
    const { earliest, dates } = response.json() as { earliest: string; dates: string[] };
    expect(earliest).toBe(addDays(today, 2));
    expect(dates.length).toBeGreaterThan(20);
    expect((dates[0] ?? '') >= earliest).toBe(true);
    expect(dates.every((date) => weekdayOf(date) >= 2)).toBe(true);
  });

  it('starts 21 days ahead when the vials are not all covered by bio-insurance', async () => {
    const response = await get('get_ShipmentDates', jane, {
      from: today,
      to: addDays(today, 60),
      NumberOfVials: '5',
    });
    expect(response.json().earliest).toBe(addDays(today, 21));
    expect((response.json().dates[0] ?? '') >= addDays(today, 21)).toBe(true);
  });

  it('leaves out staff blackout dates for FedEx, not for ACT VIP', async () => {
    const tuesday = weekdayFrom(addDays(today, 7), 2);
    await setShipmentBlackoutDates(t.db, [tuesday]);
    try {
      const query = { from: tuesday, to: addDays(tuesday, 6), NumberOfVials: '1' };
      const fedex = await get('get_ShipmentDates', jane, { ...query, method: 'FedEx' });
      expect(fedex.json().dates).not.toContain(tuesday);
      expect(fedex.json().blackoutDates).toEqual([tuesday]);
      const vip = await get('get_ShipmentDates', jane, { ...query, method: 'ACT VIP' });
      expect(vip.json().dates).toHaveLength(7);
      expect(vip.json().blackoutDates).toEqual([]);
      const quote = await post('get_FedexShipQuote', jane, { ...manhattan, ShipmentDate: tuesday });
      expect(quote.json().fields).toEqual({ ShipmentDate: shipmentDateMessages.blackout });
    } finally {
      await setShipmentBlackoutDates(t.db, []);
    }
  });

  it('offers the store from 3 days ahead, with no client needed', async () => {
    const response = await get('get_ShipmentDates', david, {
      from: today,
      to: addDays(today, 14),
      purpose: 'store',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().earliest).toBe(addDays(today, 3));
  });

  it("answers another client's id with the 404 of an unknown one", async () => {
    const response = await get('get_ShipmentDates', john, {
      from: today,
      to: addDays(today, 14),
      Client_id: 'ACT10001',
    });
    expect(response.statusCode).toBe(404);
  });

  it.each([
    ['a range over 366 days', { from: today, to: addDays(today, 366) }],
    ['an end before the start', { from: today, to: addDays(today, -1) }],
    ['a date that is not one', { from: '2027-02-29', to: '2027-03-31' }],
    ['a US-format date', { from: '03/01/2027', to: '2027-03-31' }],
  ])('refuses %s', async (_what, query) => {
    expect((await get('get_ShipmentDates', jane, query)).statusCode).toBe(400);
  });
});
