import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema } from '../../../domain/errors';
import { refundNeedsApproval, refundRequestSchema, refundResponseSchema } from '../../../domain/refunds';
import { amountToCents } from '../../../domain/staff-queues';
import type { AppDeps } from '../../app-deps';
import { HttpError } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { sessionOf } from '../../plugins/sessions';
import { priceBookInForce } from '../prices/price-book-repository';
import { refundPayment } from './refunds';

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  503: errorBodySchema,
};

/** Admins refund a charge, whole or part, with a reason (issue 22). */
export const staffRefundRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.post(
    '/refunds',
    {
      config: { audit: 'change-payment' },
      schema: {
        summary:
          'Refunds an approved charge, whole or part, with a reason; a charge not yet settled is voided when refunded whole. Never more than is left of it. Needs an Idempotency-Key.',
        tags: ['staff'],
        body: refundRequestSchema,
        response: { 200: refundResponseSchema, ...errors },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const key = idempotencyKeyOf(request.headers);
      const cents = amountToCents(request.body.amount);
      const { book } = await priceBookInForce(deps.db, deps.clock.now());
      if (cents !== null && cents > book.refundApprovalCents) {
        const message = refundNeedsApproval(book.refundApprovalCents);
        throw new HttpError('NOT_ALLOWED_NOW', message, { amount: message });
      }
      return refundPayment(
        { ...deps, log: request.log },
        {
          scope: `staff:${session.staffId}`,
          idempotencyKey: key,
          paymentId: request.body.paymentId,
          amount: request.body.amount,
          reason: request.body.reason,
          requestedBy: session.staffId,
        },
      );
    },
  );
};
