import { and, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fedexHolidays, shipmentDateMessages } from '../../../domain/carrier-calendar';
import { todayFor } from '../../../domain/client';
import { addDays } from '../../../domain/dates';
import { shippingCalendarMessages } from '../../../domain/shipping-calendar';
import { auditEvents } from '../../db/schema';
import { weekdayFrom } from '../../testing/dates';
import { staffLevelMember, staffSession } from '../../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../../testing/test-app';
import { setShipmentBlackoutDates, shipmentBlackoutDates } from '../ordering/shipment-calendar-repository';

/** Admins keep the carrier blackout dates; the shipment date rules refuse them for FedEx. */
let t: TestApp;
let admin: string;
let member: string;
let jane: string;
const today = todayFor(new Date());

const inject = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
  admin = await staffSession(t);
  member = await staffLevelMember(t, admin, 'calendar-member@example.com');
  jane = await t.signIn('ACT10001');
  if (todayFor(t.clock.now()) !== today) throw new Error('the tests started across midnight; run them again');
});
afterAll(() => t.close());

describe('the shipping calendar (admins)', () => {
  it('lists the blackout dates with the computed FedEx holidays of this year and next', async () => {
    const response = await inject('GET', '/api/staff/blackout_dates', admin);
    expect(response.statusCode, response.body).toBe(200);
    const year = Number(today.slice(0, 4));
    expect(response.json()).toEqual({
      today,
      dates: [],
      holidays: [...fedexHolidays(year), ...fedexHolidays(year + 1)],
    });
  });

  it('an added date is refused for FedEx (dates offered and the quote), not for ACT VIP; removing it allows it again', async () => {
    const tuesday = weekdayFrom(addDays(today, 30), 2);
    const since = t.clock.now();
    try {
      const added = await inject('POST', '/api/staff/add_blackout_date', admin, { date: tuesday });
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().dates).toEqual([tuesday]);
      expect(await shipmentBlackoutDates(t.db)).toEqual([tuesday]);

      const query = { from: tuesday, to: addDays(tuesday, 6), NumberOfVials: '1' };
      const fedex = await t.app.inject({
        method: 'GET',
        url: '/api/pay/get_ShipmentDates',
        headers: { cookie: jane },
        query: { ...query, method: 'FedEx' },
      });
      expect(fedex.statusCode, fedex.body).toBe(200);
      expect(fedex.json().dates).not.toContain(tuesday);
      expect(fedex.json().dates).toContain(addDays(tuesday, 1));
      const vip = await t.app.inject({
        method: 'GET',
        url: '/api/pay/get_ShipmentDates',
        headers: { cookie: jane },
        query: { ...query, method: 'ACT VIP' },
      });
      expect(vip.json().dates).toContain(tuesday);
      const quote = await inject('POST', '/api/pay/get_FedexShipQuote', jane, {
        Country: 'United States',
        Street: '160 East 56th Street',
        City: 'New York',
        State: 'NY',
        ZipCode: '10022',
        Phone: '3055550142',
        ShipmentDate: tuesday,
      });
      expect(quote.json().fields).toEqual({ ShipmentDate: shipmentDateMessages.blackout });

      // Idempotent both ways.
      const again = await inject('POST', '/api/staff/add_blackout_date', admin, { date: tuesday });
      expect(again.json().dates).toEqual([tuesday]);
      const removed = await inject('POST', '/api/staff/remove_blackout_date', admin, { date: tuesday });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json().dates).toEqual([]);
      const removedAgain = await inject('POST', '/api/staff/remove_blackout_date', admin, { date: tuesday });
      expect(removedAgain.statusCode).toBe(200);
      expect(removedAgain.json().dates).toEqual([]);
      const after = await t.app.inject({
        method: 'GET',
        url: '/api/pay/get_ShipmentDates',
        headers: { cookie: jane },
        query: { ...query, method: 'FedEx' },
      });
      expect(after.json().dates).toContain(tuesday);

      const audited = await t.db
        .select({ route: auditEvents.route })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'change-calendar'), gte(auditEvents.at, since)));
      expect(audited.length).toBeGreaterThanOrEqual(4);
    } finally {
      await setShipmentBlackoutDates(t.db, []);
    }
  });

  it('refuses past and malformed dates with a 400 naming the field', async () => {
    const past = await inject('POST', '/api/staff/add_blackout_date', admin, { date: addDays(today, -1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ date: shippingCalendarMessages.pastDate });
    for (const date of ['2030-02-30', '02/30/2030', '13/24/2030', '2030-1-5', '', 'tomorrow']) {
      for (const url of ['/api/staff/add_blackout_date', '/api/staff/remove_blackout_date']) {
        const response = await inject('POST', url, admin, { date });
        expect(response.statusCode, `${url} ${date}`).toBe(400);
        expect(response.json().fields?.date, `${url} ${date}`).toBe(shippingCalendarMessages.invalidDate);
      }
    }
    // Typed as every back-office date: MM/DD/YYYY, kept as YYYY-MM-DD.
    const typed = await inject('POST', '/api/staff/add_blackout_date', admin, { date: '12/24/2030' });
    expect(typed.statusCode, typed.body).toBe(200);
    expect(await shipmentBlackoutDates(t.db)).toContain('2030-12-24');
    await setShipmentBlackoutDates(t.db, []);
    // Today itself may still be closed.
    const todayAdded = await inject('POST', '/api/staff/add_blackout_date', admin, { date: today });
    expect(todayAdded.statusCode, todayAdded.body).toBe(200);
    await setShipmentBlackoutDates(t.db, []);
    expect(await shipmentBlackoutDates(t.db)).toEqual([]);
  });

  it('does not exist for a staff-level member nor a client', async () => {
    const date = weekdayFrom(addDays(today, 30), 3);
    for (const cookie of [member, jane]) {
      expect((await inject('GET', '/api/staff/blackout_dates', cookie)).statusCode).toBe(404);
      expect((await inject('POST', '/api/staff/add_blackout_date', cookie, { date })).statusCode).toBe(404);
      expect((await inject('POST', '/api/staff/remove_blackout_date', cookie, { date })).statusCode).toBe(
        404,
      );
    }
    expect(await shipmentBlackoutDates(t.db)).toEqual([]);
  });
});
