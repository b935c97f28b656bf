import { asc, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '../../../domain/errors';
import {
  type ClientNewbornAgreements,
  clientNewbornAgreementsSchema,
} from '../../../domain/newborn-agreement';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { sessionOf } from '../../plugins/sessions';
import { resolveStaffClientAccess } from '../clients/client-access';
import { newbornAgreements, newbornInstallments } from './schema';

/** A client's newborn finance agreements, newest first, each with its schedule and each installment's status. */
export async function clientNewbornAgreements(
  db: Database,
  clientId: string,
): Promise<ClientNewbornAgreements> {
  const agreements = await db
    .select()
    .from(newbornAgreements)
    .where(eq(newbornAgreements.clientId, clientId))
    .orderBy(desc(newbornAgreements.createdAt));
  const installments =
    agreements.length === 0
      ? []
      : await db
          .select()
          .from(newbornInstallments)
          .where(
            inArray(
              newbornInstallments.agreementId,
              agreements.map((a) => a.id),
            ),
          )
          .orderBy(asc(newbornInstallments.number));
  return {
    agreements: agreements.map((a) => ({
      id: a.id,
      mainContact: a.mainContact,
      signedAt: a.signedAt?.toISOString() ?? null,
      totalFinancedCents: a.totalFinancedCents,
      depositTotalCents: a.depositTotalCents,
      paymentKind: a.paymentKind,
      installments: installments
        .filter((i) => i.agreementId === a.id)
        .map((i) => ({
          number: i.number,
          dueDate: i.dueDate,
          paymentCents: i.paymentCents,
          interestCents: i.interestCents,
          principalCents: i.principalCents,
          balanceCents: i.balanceCents,
          status: i.status,
          tries: i.tries,
          nextTryOn: i.nextTryOn,
          lateChargeCents: i.lateChargeCents,
          paidOn: i.paidOn,
          paidTotalCents: i.paidTotalCents,
        })),
    })),
  };
}

/** The client's record (staff): each newborn finance agreement's schedule and status. */
export const staffNewbornAgreementRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/newborn-agreements/clients/:clientId',
    {
      config: { audit: 'read-payment' },
      schema: {
        summary:
          "A client's newborn finance agreements: signed or not, the deposit, and each installment's date, amounts and status",
        tags: ['staff'],
        params: z.object({ clientId: z.string().max(64) }),
        response: { 200: clientNewbornAgreementsSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const session = sessionOf(request, 'staff');
      const clientId = await resolveStaffClientAccess(deps.db, session, request.params.clientId);
      return clientNewbornAgreements(deps.db, clientId);
    },
  );
};
