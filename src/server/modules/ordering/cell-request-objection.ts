import { eq } from 'drizzle-orm';
import {
  type CellRequestObjection,
  objectionMessages as m,
  type ObjectionView,
} from '../../../domain/cell-request-objection';
import { isoToUsDate } from '../../../domain/dates';
import type { AppDeps } from '../../app-deps';
import { HttpError } from '../../lib/http-error';
import { readIdLinkToken } from '../../lib/link-tokens';
import { clientContact } from '../clients/client-directory';
import type { PaymentDeps } from '../payments/ledger';
import { cancelCellRequest } from './cell-request-cancellation';
import { vialRequests } from './schema';
import { packageReference } from './vial-shipping';

/**
 * The client's objection to a vial request their physician placed (issue 23). The signed link
 * e-mailed at placement is the only key: it shows who ordered what, and within the window (two
 * business days, domain/cell-request-objection.ts) an objection cancels the request through the
 * cancellation path at no cost, whatever the cancellation cutoff. Later, or once shipped, it is
 * refused with the reason; a second objection answers the first.
 */

type ObjectionDeps = Pick<AppDeps, 'db' | 'clock' | 'linkSecret'>;
type RequestRow = typeof vialRequests.$inferSelect;

const invalidLink = () => new HttpError('NOT_FOUND', m.linkInvalid);

function requestIdOf(deps: ObjectionDeps, token: string): string {
  const id = readIdLinkToken(deps.linkSecret, 'cell-request-objection', token, deps.clock.now());
  if (!id) throw invalidLink();
  return id;
}

function stateOf(row: RequestRow, deadline: Date, now: Date): Pick<ObjectionView, 'state' | 'message'> {
  if (row.objectedAt) return { state: 'objected', message: m.objected };
  if (row.status === 'cancelled') return { state: 'closed', message: m.cancelledOtherwise };
  if (row.shippedAt) return { state: 'closed', message: m.shipped };
  if (now.getTime() >= deadline.getTime()) return { state: 'closed', message: m.closed(deadline) };
  return { state: 'open', message: null };
}

/** What the link shows, and the client it is about (for the audit row). */
export async function objectionOfLink(
  deps: ObjectionDeps,
  token: string,
): Promise<{ clientId: string; view: ObjectionView }> {
  const id = requestIdOf(deps, token);
  const [row] = await deps.db.select().from(vialRequests).where(eq(vialRequests.id, id)).limit(1);
  if (!row?.objectionDeadline || row.status === 'pending') throw invalidLink();
  const client = await clientContact(deps.db, row.clientId);
  if (!client) throw invalidLink();
  const deadline = row.objectionDeadline;
  return {
    clientId: row.clientId,
    view: {
      reference: packageReference(row.id),
      clientFirstName: client.firstName,
      physicianName: row.orderedBy ?? 'Your physician',
      vials: row.vials,
      shipmentDate: isoToUsDate(row.shipmentDate),
      clinicName: row.clinicName,
      shipTo: `${row.contactFirstName} ${row.contactLastName}, ${row.city}, ${row.state}`,
      totalCents: row.totalCents,
      paidBy: row.paidByPhysician ? 'physician' : 'client',
      paymentDescription: row.paymentDescription,
      deadline: deadline.toISOString(),
      ...stateOf(row, deadline, deps.clock.now()),
      objection: row.objectedAt
        ? {
            at: row.objectedAt.toISOString(),
            note: row.objectionNote ?? '',
            refundCents: row.cancelRefundCents ?? 0,
            returnedVials: row.cancelReturnedVials ?? 0,
          }
        : null,
    },
  };
}

/** The client objects: within the window, the request is cancelled with everything given back. */
export async function objectToCellRequest(
  deps: ObjectionDeps & PaymentDeps,
  input: CellRequestObjection,
): Promise<{ clientId: string; view: ObjectionView }> {
  const id = requestIdOf(deps, input.token);
  await cancelCellRequest(deps, {
    clientId: null,
    id,
    staffId: null,
    reason: null,
    objection: { note: input.note },
  }).catch((error: unknown) => {
    // A link to a request that is gone reads as any other link that is not valid.
    if (error instanceof HttpError && error.code === 'NOT_FOUND') throw invalidLink();
    throw error;
  });
  return objectionOfLink(deps, input.token);
}
