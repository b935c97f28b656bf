import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  refundAnswerSchema,
  refundDeclinedSchema,
  refundRequestSchema,
  staffClientPaymentsSchema,
} from '../../../domain/refunds';
import type { AppDeps } from '../../app-deps';
import { notFound } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { noteAuditAmount, noteResolvedClient } from '../../plugins/audit';
import { type StaffSession, sessionOf } from '../../plugins/sessions';
import { resolveStaffClientAccess } from '../clients/client-access';
import { priceBookInForce } from '../prices/price-book-repository';
import { staffClientPayments } from './client-payments';
import { replyWithReceipt } from './receipts';
import { approveRefund, declineRefund, refundPayment } from './refunds';
import { payments, refunds } from './schema';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  503: errorBodySchema,
};

/** Notes, for the audit row, the client whose payment or refund this is; unknown is 404. */
async function noteClientOf(
  deps: AppDeps,
  session: StaffSession,
  row: { paymentId: string } | { refundId: string },
): Promise<void> {
  const [found] =
    'paymentId' in row
      ? await deps.db
          .select({ clientId: payments.clientId })
          .from(payments)
          .where(eq(payments.id, row.paymentId))
          .limit(1)
      : await deps.db
          .select({ clientId: refunds.clientId })
          .from(refunds)
          .where(eq(refunds.id, row.refundId))
          .limit(1);
  if (!found) throw notFound();
  noteResolvedClient(session, found.clientId);
}

/** An admin's refund action: who, its key, and the client it acts on noted for the audit row. */
async function refundAction(
  deps: AppDeps,
  request: FastifyRequest,
  row: { paymentId: string } | { refundId: string },
) {
  const session = sessionOf(request, 'staff');
  const key = idempotencyKeyOf(request.headers);
  await noteClientOf(deps, session, row);
  return { session, key, paymentDeps: { ...deps, log: request.log } };
}

/** What staff of either level read of a client's payments and refunds (the client's record). */
export const staffPaymentReadRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/clients/:clientId/payments',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary:
          "A client's approved payments, newest first, each with its refunds, what was refunded, what awaits a second admin's approval and what is left; the method by brand and last 4 only",
        tags: ['staff'],
        params: z.object({ clientId: z.string().max(64) }),
        response: { 200: staffClientPaymentsSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const clientId = await resolveStaffClientAccess(deps.db, session, request.params.clientId);
      const admin = session.level === 'admin';
      const { book } = await priceBookInForce(deps.db, deps.clock.now());
      return {
        payments: await staffClientPayments(deps.db, clientId, { staffId: session.staffId, admin }),
        approvalLimitCents: book.refundApprovalCents,
        canRefund: admin,
      };
    },
  );

  app.get(
    '/receipts/:id',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary:
          "The receipt PDF of a client's approved payment, or of a refund or void that went through, as the client has it",
        tags: ['staff'],
        params: z.object({ id: z.string().max(64) }),
        response: { 200: z.instanceof(Buffer).describe('The receipt (PDF)'), ...errors },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request, 'staff');
      return replyWithReceipt(reply, deps.db, request.params.id, deps.clock.now(), (clientId) =>
        resolveStaffClientAccess(deps.db, session, clientId),
      );
    },
  );
};

/** Admins refund a charge, whole or part, with a reason; above the limit a second admin approves (issue 22). */
export const staffRefundRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/refunds',
    {
      config: { audit: 'change-payment' },
      schema: {
        summary:
          "Refunds an approved charge, whole or part, with a reason; a charge not yet settled is voided when refunded whole. Never more than is left of it (refunds awaiting approval held). Above the price book's refundApprovalCents it is recorded awaiting another admin's approval, nothing sent. Needs an Idempotency-Key.",
        tags: ['staff'],
        body: refundRequestSchema,
        response: { 200: refundAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const { paymentId, amount, reason } = request.body;
      const { session, key, paymentDeps } = await refundAction(deps, request, { paymentId });
      const { book } = await priceBookInForce(deps.db, deps.clock.now());
      const answer = await refundPayment(paymentDeps, {
        scope: `staff:${session.staffId}`,
        idempotencyKey: key,
        paymentId,
        amount,
        reason,
        requestedBy: session.staffId,
        approvalLimitCents: book.refundApprovalCents,
      });
      noteAuditAmount(request, answer.amountCents);
      return answer;
    },
  );

  app.post(
    '/refunds/:id/approve',
    {
      config: { audit: 'change-payment' },
      schema: {
        summary:
          'Approves a refund awaiting approval and sends it, once: an admin other than the one who asked (403 for the asker). Needs an Idempotency-Key.',
        tags: ['staff'],
        params: z.object({ id: z.uuid() }),
        response: { 200: refundAnswerSchema, ...errors },
      },
    },
    async (request) => {
      const refundId = request.params.id;
      const { session, key, paymentDeps } = await refundAction(deps, request, { refundId });
      const approved = await approveRefund(paymentDeps, {
        refundId,
        staffId: session.staffId,
        idempotencyKey: key,
      });
      noteAuditAmount(request, approved.amountCents);
      return approved;
    },
  );

  app.post(
    '/refunds/:id/decline',
    {
      config: { audit: 'change-payment' },
      schema: {
        summary:
          'Declines a refund awaiting approval: nothing is sent and its amount is free to refund again. The admin who asked may withdraw their own.',
        tags: ['staff'],
        params: z.object({ id: z.uuid() }),
        response: { 200: refundDeclinedSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      await noteClientOf(deps, session, { refundId: request.params.id });
      return declineRefund(deps, { refundId: request.params.id, staffId: session.staffId });
    },
  );
};
