import { and, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Transaction } from '../../lib/run-once';
import { updateActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import type { PaymentDeps } from '../payments/ledger';
import { refundPayment, refundsOwedBy } from '../payments/refunds';

/**
 * The refunds a cancelled order owes (a vial request's, a store order's, a storage plan's unused
 * part taken back), sent through the
 * payments module under the order's source: one live refund per charge and source, by
 * constraint. Each try takes a new key; a refund refused for now (a charge not settled yet) is
 * tried again by the sweep an hour later; one refused two days long is left to staff. A refund
 * still under way (its answer lost, or its process died) is settled by its own recovery once its
 * lease lapses: the sweep looks again a lease later, to send it anew if it failed, or to mark the
 * order settled.
 */

export type OwedRefunds = { paymentId: string; cents: number }[];

/** Where a round of sending left an order's refunds: all done, the rest under way, or owed. */
export type OwedRefundsState = 'settled' | 'under way' | 'owed';

const RETRY_AFTER_MS = 60 * 60_000;
/** Two days of hourly tries: a refund refused that long is not for a machine to keep trying. */
const MAX_TRIES = 48;

/** An order that owes refunds once cancelled: its columns for the sweep (owedRefundColumns in schema.ts). */
interface OwingOrders {
  cancelRefundsSettledAt: PgColumn;
  cancelRefundsNextTryAt: PgColumn;
}

/** Sends each refund still owed; answers whether all are done now, or the rest under way. */
export async function sendRefundsOwed(
  deps: PaymentDeps,
  input: { source: string; owed: OwedRefunds; reason: string; requestedBy: string | null; clientId: string },
): Promise<OwedRefundsState> {
  const done = (owed: OwedRefunds[number], states: Awaited<ReturnType<typeof refundsOwedBy>>) =>
    (states.get(owed.paymentId)?.doneCents ?? 0) >= owed.cents;
  for (const refund of input.owed) {
    const states = await refundsOwedBy(deps.db, input.source);
    if (done(refund, states)) continue;
    const state = states.get(refund.paymentId);
    // Under way: its own recovery settles it. Refused two days long: left to staff, the order showing it owed.
    if (state?.underWay || (state?.failedTries ?? 0) >= MAX_TRIES) continue;
    try {
      await refundPayment(deps, {
        scope: 'cancellations',
        idempotencyKey: `${input.source}:${refund.paymentId}:${state?.failedTries ?? 0}`,
        paymentId: refund.paymentId,
        amount: (refund.cents / 100).toFixed(2),
        reason: input.reason,
        requestedBy: input.requestedBy,
        clientId: input.clientId,
        source: input.source,
      });
    } catch (error) {
      deps.log.warn(
        { source: input.source, error: error instanceof Error ? error.message : 'Error' },
        'a cancellation refund was not sent; the sweep tries again',
      );
    }
  }
  const after = await refundsOwedBy(deps.db, input.source);
  const left = input.owed.filter((refund) => !done(refund, after));
  if (left.length === 0) return 'settled';
  return left.every((refund) => after.get(refund.paymentId)?.underWay) ? 'under way' : 'owed';
}

/**
 * The order's columns after a round of sending: settled, or the sweep's next try (a lease later
 * when the rest is under way, an hour later when a refund was refused).
 */
export function owedRefundsOutcome(state: OwedRefundsState, now: Date, leaseMs: number) {
  if (state === 'settled') return { cancelRefundsSettledAt: now, cancelRefundsNextTryAt: null };
  const after = state === 'under way' ? leaseMs : RETRY_AFTER_MS;
  return { cancelRefundsNextTryAt: new Date(now.getTime() + after) };
}

/** The orders still owing refunds since `owedSince` (their cancellation) and due a try. */
export function owedRefundsDue(t: OwingOrders, owedSince: PgColumn, now: Date) {
  return and(
    isNotNull(owedSince),
    isNull(t.cancelRefundsSettledAt),
    or(isNull(t.cancelRefundsNextTryAt), lte(t.cancelRefundsNextTryAt, now)),
  );
}

/** A cancellation's effects with it: the order's Client Activity row marked Cancelled, the client e-mailed. */
export async function tellClientCancelled(
  tx: Transaction,
  deps: Pick<PaymentDeps, 'mailer'>,
  input: { clientId: string; activityId: string | null; subject: string; lines: string[]; dedupeKey: string },
) {
  if (input.activityId) await updateActivity(tx, input.activityId, { stageName: 'Cancelled' });
  const client = await clientContact(tx, input.clientId);
  if (!client) return;
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: input.subject,
      text: [`Dear ${client.firstName},`, ...input.lines.filter(Boolean)].join('\n\n'),
    },
    { dedupeKey: input.dedupeKey },
  );
}

/** After a cancellation committed: the refunds it owes sent if it is the first, the e-mail on its way. */
export async function refundCancelled<R>(
  deps: Pick<PaymentDeps, 'mailer'>,
  cancelled: { row: R; fresh: boolean },
  send: (row: R) => Promise<R>,
): Promise<R> {
  const row = cancelled.fresh ? await send(cancelled.row) : cancelled.row;
  deps.mailer.kick();
  return row;
}
