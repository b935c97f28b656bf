import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../app-deps';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { sessionOf } from '../../plugins/sessions';
import { resolveClientAccess } from '../clients/client-access';
import { withPaymentAttempt } from '../payments/payment-attempts';

/** Who places an order: the client, or a physician for a client they act for (physicianId). */
export interface OrderFor<B> {
  clientId: string;
  physicianId: string | null;
  idempotencyKey: string;
  body: B;
}

/**
 * A paid order a client places for themselves, or a physician for a client they act for
 * (Client_id, or the session's client; any other is the same 404), within the payment attempt
 * limits and with the request's Idempotency-Key.
 */
export async function placeOrderFor<B extends { Client_id?: string | undefined }, T>(
  deps: AppDeps,
  request: FastifyRequest,
  body: B,
  place: (deps: AppDeps & { log: FastifyRequest['log'] }, input: OrderFor<B>) => Promise<T>,
): Promise<T> {
  const session = sessionOf(request, 'client', 'physician');
  const clientId = await resolveClientAccess(deps.db, session, body.Client_id);
  const idempotencyKey = idempotencyKeyOf(request.headers);
  const physicianId = session.role === 'physician' ? session.physicianId : null;
  return withPaymentAttempt(deps, { clientId, ip: request.ip, idempotencyKey }, (gateway) =>
    place({ ...deps, gateway, log: request.log }, { clientId, physicianId, idempotencyKey, body }),
  );
}
