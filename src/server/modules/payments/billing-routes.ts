import { and, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { todayFor } from '../../../domain/client-basics';
import { isIsoDate } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import {
  type BillingRunResponse,
  billingOverviewSchema,
  billingRunRequestSchema,
  billingRunResponseSchema,
  cardExpiresBefore,
  changeBillingYearRequestSchema,
  changeBillingYearResponseSchema,
  clientBillingYearsSchema,
  describeMethodOnFile,
  renewalMessages as m,
  renewalAmountCents,
  storageRenewalSchema,
  yearAmountCents,
} from '../../../domain/storage-billing';
import type { AppDeps } from '../../app-deps';
import { HttpError, notFound } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { type Recovered, type RecoveryRun, runOnce } from '../../lib/run-once';
import { noteResolvedClient } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { resolveStaffClientAccess } from '../clients/client-access';
import { clientContact } from '../clients/client-directory';
import { installmentBilling, sendInstallmentPaymentLink } from '../newborn-agreement/installment-billing';
import { runInstallmentsDay } from '../newborn-agreement/newborn-installments';
import { priceBookInForce } from '../prices/price-book-repository';
import {
  billingDayOf,
  billingOverview,
  changeBillingYear,
  clientBillingYears,
  latestBillingDay,
  runBilling,
} from './billing-run';
import { findMethodsOnFile } from './payment-methods';
import type { RenewalDeps } from './renewal-outcomes';
import { annualStorageFees } from './schema';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

export function renewalDeps(deps: AppDeps): RenewalDeps {
  return {
    ...deps,
    log: { warn: () => {} },
    publicUrl: deps.config.publicUrl,
    contactUrl: deps.config.contactUrl,
    bank: deps.config.bank,
  };
}

/**
 * What the client sees of their next storage year (Client Information, Payment Information):
 * the next charge with its amount, day and method, a retry under way, or a card that expires
 * before it.
 */
export async function storageRenewalOf(deps: AppDeps, clientId: string) {
  const client = await clientContact(deps.db, clientId);
  if (!client) throw notFound();
  const [open] = await deps.db
    .select()
    .from(annualStorageFees)
    .where(
      and(
        eq(annualStorageFees.clientId, clientId),
        inArray(annualStorageFees.status, ['noticed', 'retrying', 'overdue']),
      ),
    )
    .orderBy(desc(annualStorageFees.dueDate))
    .limit(1);
  const methods = await findMethodsOnFile(deps.db, clientId);
  const method = methods.card ?? methods.ach;
  const named = method ? describeMethodOnFile(method) : null;
  let nextCharge: string | null = null;
  let retryingOn: string | null = null;
  let dueDate: string | null = null;
  if (open?.status === 'retrying' && open.nextTryOn) {
    retryingOn = m.retrying(open.nextTryOn);
    dueDate = open.dueDate;
  } else if (open?.status === 'noticed') {
    const on = open.chargeOn ?? open.dueDate;
    dueDate = on;
    const amount = yearAmountCents(open, method ? method.kind : 'none');
    nextCharge = named ? m.nextCharge(amount, on, named) : m.nextInvoice(amount, on);
  } else if (!open && client.annualStoragePaidUntil) {
    // Not yet noticed: the amount as the price book in force prices it today.
    const { book } = await priceBookInForce(deps.db, deps.clock.now());
    const amount = renewalAmountCents(book, method ? method.kind : 'none');
    dueDate = client.annualStoragePaidUntil;
    nextCharge = named ? m.nextCharge(amount, dueDate, named) : m.nextInvoice(amount, dueDate);
  }
  let expiring: string | null = null;
  if (method && named && dueDate && cardExpiresBefore(method, dueDate)) {
    expiring = m.expiresBeforeDue(named, dueDate);
  }
  return { nextCharge, retryingOn, expiring };
}

/** A billing run cut short: each day is safe to run again, so it is only not answered. */
async function recoverBillingRun(run: RecoveryRun<BillingRunResponse>): Promise<Recovered> {
  await run.fail(
    new HttpError('NOT_ALLOWED_NOW', 'The run was interrupted. Please run it again.'),
    async () => {},
  );
  return 'settled';
}

export const billingRunRecoveries = { 'billing-run': recoverBillingRun };

/** The client's own renewal line. */
export const storageRenewalRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/storage_renewal',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary: "The client's next annual storage charge, a retry under way, or a card expiring before it",
        tags: ['payments'],
        response: { 200: storageRenewalSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'client');
      return storageRenewalOf(deps, session.clientId);
    },
  );
};

/** The Billing page (staff). */
export const staffBillingRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/billing/clients/:clientId',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary: "A client's billing schedule: each storage year billed, its amount, status and tries",
        tags: ['staff'],
        params: z.object({ clientId: z.string().max(64) }),
        response: { 200: clientBillingYearsSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const clientId = await resolveStaffClientAccess(deps.db, session, request.params.clientId);
      return { years: await clientBillingYears(deps, clientId) };
    },
  );

  app.get(
    '/billing',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary:
          'Renewals due in the next 30 days, charged today, failed and waiting for a retry, overdue, and recovered after a retry',
        tags: ['staff'],
        response: { 200: billingOverviewSchema, ...errors },
      },
    },
    async () => {
      const rd = renewalDeps(deps);
      const storage = await billingOverview(rd, deps.config.demo);
      return { ...storage, installments: await installmentBilling(rd, storage.today) };
    },
  );

  app.post(
    '/billing/installments/:id/payment_link',
    {
      config: { audit: 'send-payment-link' },
      schema: {
        summary:
          "E-mails the main contact an overdue newborn installment's amount and a signed link (14 days) to the agreement's page, where it is paid; at most 5 per client per hour. The link is never answered.",
        tags: ['staff'],
        params: z.object({ id: z.uuid() }),
        response: { 200: z.object({ sentTo: z.string() }), ...errors, 429: errorBodySchema },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const rd = renewalDeps(deps);
      const { day } = await billingDayOf(rd);
      const sent = await sendInstallmentPaymentLink(rd, request.params.id, day);
      noteResolvedClient(session, sent.clientId);
      return { sentTo: sent.sentTo };
    },
  );
};

/**
 * "Run billing as of…" (admins, demo mode only; 404 otherwise): each day from the day after the
 * last run up to the date, once and in order, without moving the application's clock.
 */
export const staffBillingAdminRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/billing/years/:id',
    {
      config: { audit: 'change-billing-year' },
      schema: {
        summary:
          'Waives an open storage year (storage is paid through it) or defers its charge, with a reason',
        tags: ['staff'],
        params: z.object({ id: z.uuid() }),
        body: changeBillingYearRequestSchema,
        response: { 200: changeBillingYearResponseSchema, ...errors },
      },
    },
    async (request) => {
      sessionOf(request, 'staff');
      return changeBillingYear(renewalDeps(deps), request.params.id, request.body);
    },
  );

  app.post(
    '/billing/run',
    {
      config: { audit: 'billing-run' },
      schema: {
        summary:
          'Demo mode only: runs billing each day up to asOf (at most two years ahead); counts of notices, charges, declines, retries and overdue years, and of the newborn installments. Needs an Idempotency-Key.',
        tags: ['staff'],
        body: billingRunRequestSchema,
        response: { 200: billingRunResponseSchema, ...errors, 422: errorBodySchema },
      },
    },
    async (request) => {
      if (!deps.config.demo) throw notFound();
      const session = sessionOf(request, 'staff');
      const key = idempotencyKeyOf(request.headers);
      const { asOf, clients } = request.body;
      if (!isIsoDate(asOf)) throw new HttpError('VALIDATION', m.asOfInvalid, { asOf: m.asOfInvalid });
      const today = todayFor(deps.clock.now());
      if (asOf > latestBillingDay(today)) {
        throw new HttpError('VALIDATION', m.asOfTooFar, { asOf: m.asOfTooFar });
      }
      const rd = renewalDeps(deps);
      return runOnce<Record<string, never>, BillingRunResponse>(deps, {
        scope: `staff:${session.staffId}`,
        key,
        kind: 'billing-run',
        request: request.body,
        claim: async () => ({}),
        release: async () => {},
        recover: recoverBillingRun,
        async work(run) {
          const answer = await runBilling(rd, {
            asOf,
            ...(clients ? { clientActIds: clients } : {}),
            installmentsDay: (day, scope) => runInstallmentsDay(rd, day, scope),
          });
          return run.succeed(async () => {}, answer);
        },
      });
    },
  );
};
