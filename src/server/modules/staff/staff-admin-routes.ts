import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { fedexHolidays } from '../../../domain/carrier-calendar';
import { todayFor } from '../../../domain/client';
import { errorBodySchema } from '../../../domain/errors';
import {
  approvePriceVersionRequestSchema,
  createPriceVersionRequestSchema,
  priceVersionMessages,
  priceVersionsResponseSchema,
  withdrawPriceVersionRequestSchema,
} from '../../../domain/price-book';
import {
  blackoutDateRequestSchema,
  blackoutDatesResponseSchema,
  shippingCalendarMessages,
} from '../../../domain/shipping-calendar';
import {
  auditResponseSchema,
  auditSearchQuerySchema,
  createStaffRequestSchema,
  createStaffResponseSchema,
  disableStaffRequestSchema,
  staffListResponseSchema,
  staffMemberSchema,
  staffMessages,
} from '../../../domain/staff';
import type { AppDeps } from '../../app-deps';
import { staffAccounts } from '../../db/schema';
import { HttpError, notFound } from '../../lib/http-error';
import { noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { changeShipmentBlackoutDate, shipmentBlackoutDates } from '../ordering/shipment-calendar-repository';
import {
  addPriceVersion,
  approvePriceVersion,
  priceVersions,
  withdrawPriceVersion,
} from '../prices/price-book-repository';
import { createStaff, findStaff, staffMemberOf } from './staff-accounts';
import { listAuditEvents, listStaff } from './staff-client-repository';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };

/**
 * What only admins do (the scope admits admins only; a `staff` member gets the 404 of a route
 * that does not exist for them): staff accounts, the whole audit trail, the carrier blackout dates and the price book.
 */
export const staffAdminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, clock, sessions }) => {
  app.get(
    '/staff',
    {
      config: { audit: null },
      schema: {
        summary: 'Admins: the staff accounts',
        tags: ['staff admin'],
        response: { 200: staffListResponseSchema, ...errors },
      },
    },
    async () => ({ staff: (await listStaff(db)).map(staffMemberOf) }),
  );

  app.post(
    '/create_staff',
    {
      config: { audit: 'change-staff' },
      schema: {
        summary:
          'Admins: creates a staff account; answers its initial password once, for the admin to hand over (the member enrols TOTP at first sign-in)',
        tags: ['staff admin'],
        body: createStaffRequestSchema,
        response: { 200: createStaffResponseSchema, ...errors },
      },
    },
    async (request) => {
      const admin = sessionOf(request, 'staff');
      const created = await createStaff(db, { ...request.body, createdBy: admin.staffId, now: clock.now() });
      if (!created) {
        throw new HttpError('VALIDATION', staffMessages.emailTaken, { email: staffMessages.emailTaken });
      }
      return { staff: staffMemberOf(created.row), initialPassword: created.password };
    },
  );

  app.post(
    '/disable_staff',
    {
      config: { audit: 'change-staff' },
      schema: {
        summary: 'Admins: disables a staff account; its sessions end at once',
        tags: ['staff admin'],
        body: disableStaffRequestSchema,
        response: { 200: staffMemberSchema, ...errors },
      },
    },
    async (request) => {
      const admin = sessionOf(request, 'staff');
      const { id } = request.body;
      if (id === admin.staffId) {
        throw new HttpError('VALIDATION', 'You cannot disable your own account.');
      }
      await db
        .update(staffAccounts)
        .set({ disabledAt: clock.now() })
        .where(and(eq(staffAccounts.id, id), isNull(staffAccounts.disabledAt)));
      const staff = await findStaff(db, id);
      if (!staff) throw notFound();
      await sessions.endAllFor({ role: 'staff', staffId: id });
      return staffMemberOf(staff);
    },
  );

  app.get(
    '/audit_search',
    {
      config: { audit: 'read-audit' },
      schema: {
        summary:
          'Admins: the whole audit trail, newest first (200 at most), filtered by any text, Client ID, actor, action and a date range (UTC days)',
        tags: ['staff admin'],
        querystring: auditSearchQuerySchema,
        response: { 200: auditResponseSchema, ...errors },
      },
    },
    async (request) => {
      const events = await listAuditEvents(db, { search: request.query });
      // The trail of many clients at once: each one shown is named on the trail of this read.
      noteShownClients(
        sessionOf(request, 'staff'),
        events.flatMap((e) => (e.clientId ? [e.clientId] : [])),
      );
      return { events };
    },
  );

  const calendar = async (dates?: string[]) => {
    const today = todayFor(clock.now());
    const year = Number(today.slice(0, 4));
    return {
      today,
      dates: dates ?? (await shipmentBlackoutDates(db)),
      holidays: [...fedexHolidays(year), ...fedexHolidays(year + 1)],
    };
  };

  app.get(
    '/blackout_dates',
    {
      config: { audit: null },
      schema: {
        summary: "Admins: the carrier blackout dates, with FedEx's computed holidays of this year and next",
        tags: ['staff admin'],
        response: { 200: blackoutDatesResponseSchema, ...errors },
      },
    },
    async () => calendar(),
  );

  app.post(
    '/add_blackout_date',
    {
      config: { audit: 'change-calendar' },
      schema: {
        summary:
          'Admins: adds a blackout date (today or later); no FedEx shipment arrives on it. Adding a listed date changes nothing',
        tags: ['staff admin'],
        body: blackoutDateRequestSchema,
        response: { 200: blackoutDatesResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { date } = request.body;
      if (date < todayFor(clock.now())) {
        throw new HttpError('VALIDATION', shippingCalendarMessages.pastDate, {
          date: shippingCalendarMessages.pastDate,
        });
      }
      return calendar(await changeShipmentBlackoutDate(db, 'add', date));
    },
  );

  app.post(
    '/remove_blackout_date',
    {
      config: { audit: 'change-calendar' },
      schema: {
        summary:
          'Admins: removes a blackout date (a past one too, to tidy the list). Removing an unlisted date changes nothing',
        tags: ['staff admin'],
        body: blackoutDateRequestSchema,
        response: { 200: blackoutDatesResponseSchema, ...errors },
      },
    },
    async (request) => calendar(await changeShipmentBlackoutDate(db, 'remove', request.body.date)),
  );

  const versions = async () => ({
    today: todayFor(clock.now()),
    versions: await priceVersions(db, clock.now()),
  });

  app.get(
    '/price_versions',
    {
      config: { audit: null },
      schema: {
        summary:
          'Admins: the price book versions, newest first: the one in force, those scheduled, past and withdrawn ones, and the book as shipped (version 0)',
        tags: ['staff admin'],
        response: { 200: priceVersionsResponseSchema, ...errors },
      },
    },
    async () => versions(),
  );

  app.post(
    '/create_price_version',
    {
      config: { audit: 'change-prices' },
      schema: {
        summary:
          'Admins: adds a price book version taking effect on a day (today or later); orders placed from that day are priced by it. Asking for the prices already in force on that day adds nothing (a double click adds one version). A version raising the ACT VIP approval limit (above the lower of the limits in force today and on its day) awaits the approval of another admin before it counts',
        tags: ['staff admin'],
        body: createPriceVersionRequestSchema(),
        response: {
          200: priceVersionsResponseSchema.extend({
            version: z.number().int(),
            awaitingApproval: z.boolean(),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const admin = sessionOf(request, 'staff');
      const { effectiveOn, note, amounts } = request.body;
      if (effectiveOn < todayFor(clock.now())) {
        throw new HttpError('VALIDATION', priceVersionMessages.notPast, {
          effectiveOn: priceVersionMessages.notPast,
        });
      }
      const { version, awaitingApproval } = await addPriceVersion(db, {
        effectiveOn,
        note,
        amounts,
        staffId: admin.staffId,
        today: todayFor(clock.now()),
      });
      return { ...(await versions()), version, awaitingApproval };
    },
  );

  app.post(
    '/withdraw_price_version',
    {
      config: { audit: 'change-prices' },
      schema: {
        summary:
          'Admins: withdraws a version that has not taken effect (it never applies). A version in force or past stays: orders were priced by it',
        tags: ['staff admin'],
        body: withdrawPriceVersionRequestSchema,
        response: { 200: priceVersionsResponseSchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const admin = sessionOf(request, 'staff');
      const { version } = request.body;
      const withdrawn = await withdrawPriceVersion(db, { version, staffId: admin.staffId, at: clock.now() });
      if (!withdrawn) {
        const listed = (await priceVersions(db, clock.now())).find((v) => v.version === version);
        if (!listed) throw notFound();
        // Withdrawn already (a double click, or another admin): the same answer as the first.
        if (listed.state !== 'withdrawn') {
          throw new HttpError('ALREADY_COMPLETED', priceVersionMessages.notScheduled);
        }
      }
      return versions();
    },
  );

  app.post(
    '/approve_price_version',
    {
      config: { audit: 'change-prices' },
      schema: {
        summary:
          'Admins: approves a version raising the ACT VIP approval limit, added by another admin; it then takes effect on its day, or today when its day has passed',
        tags: ['staff admin'],
        body: approvePriceVersionRequestSchema,
        response: { 200: priceVersionsResponseSchema, 403: errorBodySchema, 409: errorBodySchema, ...errors },
      },
    },
    async (request) => {
      const admin = sessionOf(request, 'staff');
      const { version } = request.body;
      const answer = await approvePriceVersion(db, { version, staffId: admin.staffId, at: clock.now() });
      if (answer === 'unknown') throw notFound();
      if (answer === 'own version') {
        throw new HttpError('SECOND_APPROVAL_REQUIRED', priceVersionMessages.ownVersion);
      }
      if (answer === 'not awaiting') {
        throw new HttpError('ALREADY_COMPLETED', priceVersionMessages.notAwaiting);
      }
      return versions();
    },
  );
};
