import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  dropStartedOperations,
  failOperation,
  handOverOperations,
  holdOperations,
  keepOperationAnswers,
  keepOperationStates,
  startOperations,
  succeedOperations,
  type Transaction,
} from '../../lib/run-once';
import { jsonSha256 } from '../../lib/secrets';
import { chargeReference, outcomeUnknown, type PaymentRefused, refused, releaseLedger } from './ledger';
import type { ChargeClaim, OneOffCharge } from './one-off-charge';
import {
  chargeKeyOf,
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
} from './paid-order';
import type { PaymentMethodRow } from './payment-methods';
import { payments } from './schema';

/**
 * Paid orders charged to methods on file in batches: a billing run's renewals, thousands on one
 * day. Each order is the one `placePaidOrder` would place (the same operation and claim, the same
 * inner charge with its key, ledger row and reference), written for a whole batch in a few
 * statements instead of a few transactions each:
 *
 * 1. one transaction claims the batch's things and commits every order's intent: its operation,
 *    its inner charge's operation and its ledger row with the reference the gateway will know
 *    the charge by;
 * 2. the gateway is asked for each charge, a few at a time;
 * 3. one transaction records the approved charges and confirms their orders; a refusal gives its
 *    order back as one placed alone would be; an answer that says nothing leaves the order, its
 *    lease ended, to reconciliation.
 *
 * A process that dies anywhere leaves running operations that the reconciliation sweep settles
 * with the paid-order recovery, as for an order placed alone. A key already used (another process
 * on the same day) is skipped.
 */

/** One order of a batch: whose, its key and request, its charge, and the thing's own item. */
export interface BatchOrder<I> {
  clientId: string;
  idempotencyKey: string;
  request: unknown;
  charge: {
    source: string;
    purpose: string;
    amountCents: number;
    method: PaymentMethodRow;
    description: string;
  };
  item: I;
}

/** A paid-order kind that also claims and confirms many orders at once. */
export interface BatchKind<I, C, T> extends PaidOrderKind<C, T> {
  /** Claims what is still open among these orders, in the intents' transaction: claims by operation id. */
  claimMany(
    tx: Transaction,
    orders: readonly { order: BatchOrder<I>; operationId: string }[],
  ): Promise<Map<string, C>>;
  /** Confirms approved orders in one transaction, as `confirm` does one: answers by operation id. */
  confirmMany(
    tx: Transaction,
    approved: readonly { claim: PaidClaim<C>; charge: PaidCharge }[],
  ): Promise<Map<string, T>>;
}

export interface BatchOutcome<C> {
  /** Orders charged and confirmed. */
  placed: number;
  /** Orders the gateway refused, given back, with the refusal (it names the gateway's reason). */
  refused: { claim: PaidClaim<C>; error: PaymentRefused }[];
  /** Orders whose charge's answer said nothing, left to reconciliation. */
  inDoubt: number;
}

interface Intent<I, C> {
  order: BatchOrder<I>;
  claim: PaidClaim<C>;
  chargeOperationId: string;
  ledgerId: string;
  reference: string;
}

type Answer =
  | { outcome: 'approved'; transactionId: string }
  | { outcome: 'refused'; error: PaymentRefused; transactionId: string | null }
  | { outcome: 'unknown' };

/** How many charges are at the gateway at once. */
const GATEWAY_AT_ONCE = 16;

const values = (rows: readonly ReturnType<typeof sql>[]) => sql.join([...rows], sql`, `);

/** Commits the batch's intents; the orders whose thing was still open, with their claims. */
async function commitIntents<I, C, T>(
  deps: PaidOrderDeps,
  kind: BatchKind<I, C, T>,
  orders: readonly BatchOrder<I>[],
  token: string,
): Promise<Intent<I, C>[]> {
  const now = deps.clock.now();
  const leaseUntil = new Date(now.getTime() + deps.leaseMs);
  // In key order, so that two processes inserting the same keys wait on each other, never in a circle.
  const planned = [...orders]
    .sort((a, b) => a.idempotencyKey.localeCompare(b.idempotencyKey))
    .map((order) => ({ order, operationId: randomUUID() }));
  const lease = { token, until: leaseUntil, now };
  return deps.db.transaction(async (tx) => {
    const mine = await startOperations(
      tx,
      lease,
      planned.map(({ order, operationId }) => ({
        id: operationId,
        scope: `client:${order.clientId}`,
        key: order.idempotencyKey,
        kind: kind.kind,
        request: order.request,
      })),
      { skipUsedKeys: true },
    );
    const ours = planned.filter((p) => mine.has(p.operationId));
    const claims = ours.length > 0 ? await kind.claimMany(tx, ours) : new Map<string, C>();
    // An order whose thing is no longer open keeps no operation, as a refused claim keeps none.
    await dropStartedOperations(
      tx,
      ours.filter((p) => !claims.has(p.operationId)).map((p) => p.operationId),
    );
    const intents = ours.flatMap(({ order, operationId }): Intent<I, C>[] => {
      const own = claims.get(operationId);
      if (own === undefined) return [];
      const ledgerId = randomUUID();
      return [
        {
          order,
          claim: {
            ...own,
            clientId: order.clientId,
            operationId,
            chargeKey: chargeKeyOf(order.idempotencyKey),
          },
          chargeOperationId: randomUUID(),
          ledgerId,
          reference: chargeReference(ledgerId),
        },
      ];
    });
    if (intents.length === 0) return [];
    await keepOperationStates(
      tx,
      intents.map((i) => ({ id: i.claim.operationId, state: i.claim })),
    );
    await startOperations(
      tx,
      lease,
      intents.map((i) => ({
        id: i.chargeOperationId,
        scope: `client:${i.order.clientId}`,
        key: i.claim.chargeKey as string,
        kind: 'charge',
        request: { source: i.order.charge.source, request: i.order.request },
        state: chargeClaimOf(i),
      })),
      { skipUsedKeys: false },
    );
    await tx.insert(payments).values(
      intents.map((i) => {
        const { charge } = i.order;
        return {
          id: i.ledgerId,
          clientId: i.order.clientId,
          idempotencyKey: i.claim.chargeKey as string,
          requestHash: jsonSha256({ source: charge.source, request: i.order.request }),
          operationId: i.chargeOperationId,
          source: charge.source,
          purpose: charge.purpose,
          methodKind: charge.method.kind,
          paymentMethodId: charge.method.id,
          amountCents: charge.amountCents,
          feeCents: 0,
          totalCents: charge.amountCents,
          status: 'in_progress' as const,
          // The reference is committed before the gateway is called: recovery finds the charge by it.
          reference: i.reference,
          chargeStartedAt: now,
          gatewayCustomerRef: charge.method.gatewayCustomerRef,
          methodBrand: charge.method.brand,
          methodLast4: charge.method.last4,
          createdAt: now,
        };
      }),
    );
    return intents;
  });
}

function chargeClaimOf(intent: Intent<unknown, unknown>): ChargeClaim {
  const { amountCents, method } = intent.order.charge;
  return { ledgerId: intent.ledgerId, amountCents, feeCents: 0, totalCents: amountCents, kind: method.kind };
}

function oneOffChargeOf(intent: Intent<unknown, unknown>, transactionId: string): OneOffCharge {
  const { amountCents, method } = intent.order.charge;
  return {
    paymentId: intent.ledgerId,
    transactionId,
    amountCents,
    feeCents: 0,
    totalCents: amountCents,
    kind: method.kind,
    brand: method.brand,
    last4: method.last4,
  };
}

/** Asks the gateway for each charge, a few at a time; a throw is an answer that says nothing. */
async function askGateway(deps: PaidOrderDeps, intents: readonly Intent<unknown, unknown>[]) {
  const answers: Answer[] = [];
  let next = 0;
  const ask = async (intent: Intent<unknown, unknown>): Promise<Answer> => {
    const { method, amountCents, description } = intent.order.charge;
    try {
      const charge = await deps.gateway.charge({
        customerRef: method.gatewayCustomerRef as string,
        paymentRef: method.gatewayPaymentRef as string,
        amountCents,
        reference: intent.reference,
        description,
      });
      if (charge.outcome === 'approved') return { outcome: 'approved', transactionId: charge.transactionId };
      if (outcomeUnknown(charge)) return { outcome: 'unknown' };
      return {
        outcome: 'refused',
        error: refused(charge.reason, charge.message),
        transactionId: charge.transactionId,
      };
    } catch {
      return { outcome: 'unknown' };
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(GATEWAY_AT_ONCE, intents.length) }, async () => {
      for (let i = next++; i < intents.length; i = next++) {
        answers[i] = await ask(intents[i] as Intent<unknown, unknown>);
      }
    }),
  );
  return answers;
}

/** Records the approved charges and confirms their orders, in one transaction; how many were confirmed. */
async function recordApproved<I, C, T>(
  deps: PaidOrderDeps,
  kind: BatchKind<I, C, T>,
  token: string,
  approved: readonly { intent: Intent<I, C>; transactionId: string }[],
): Promise<number> {
  if (approved.length === 0) return 0;
  const now = deps.clock.now();
  const charged = approved.map(({ intent, transactionId }) => ({
    intent,
    charge: oneOffChargeOf(intent as Intent<unknown, unknown>, transactionId),
  }));
  return deps.db.transaction(async (tx) => {
    const heldCharges = await succeedOperations(
      tx,
      token,
      charged.map((c) => ({ id: c.intent.chargeOperationId, response: c.charge })),
      now,
    );
    const recorded = charged.filter((c) => heldCharges.has(c.intent.chargeOperationId));
    if (recorded.length > 0) {
      await tx.execute(sql`
        update ${payments}
        set status = 'approved', gateway_transaction_id = v.transaction, response_json = v.response,
            completed_at = ${now.toISOString()}::timestamptz
        from (values ${values(recorded.map((c) => sql`(${c.intent.ledgerId}::uuid, ${c.charge.transactionId}, ${JSON.stringify(c.charge)})`))}) as v(id, transaction, response)
        where ${payments.id} = v.id`);
    }
    // The orders this batch still holds (an owner that stalled past its lease has lost them to recovery).
    const heldOrders = await succeedOperations(
      tx,
      token,
      charged.map((c) => ({ id: c.intent.claim.operationId, response: null })),
      now,
    );
    const confirming = charged.filter((c) => heldOrders.has(c.intent.claim.operationId));
    const answers = await kind.confirmMany(
      tx,
      confirming.map((c) => ({ claim: c.intent.claim, charge: { ...c.charge, receiptDocumentId: null } })),
    );
    await keepOperationAnswers(
      tx,
      [...answers].map(([id, response]) => ({ id, response })),
    );
    return confirming.length;
  });
}

/** Gives a refused order back as `placePaidOrder` would: its charge failed, its ledger row released, its claim given back. */
async function giveBack<I, C, T>(
  deps: PaidOrderDeps,
  kind: BatchKind<I, C, T>,
  token: string,
  intent: Intent<I, C>,
  answer: { error: PaymentRefused; transactionId: string | null },
) {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const fail = (id: string) => failOperation(tx, id, token, answer.error, now);
    if (await fail(intent.chargeOperationId)) {
      if (answer.transactionId) {
        await tx
          .update(payments)
          .set({ gatewayTransactionId: answer.transactionId })
          .where(eq(payments.id, intent.ledgerId));
      }
      await releaseLedger(tx, intent.ledgerId, answer.error);
    }
    if (await fail(intent.claim.operationId)) await kind.giveBack(tx, intent.claim, answer.error);
  });
}

/** Places a batch of orders charged to methods on file (at most one per client: see `batchesOf`). */
export async function placePaidOrdersOnFile<I, C, T>(
  deps: PaidOrderDeps,
  kind: BatchKind<I, C, T>,
  orders: readonly BatchOrder<I>[],
): Promise<BatchOutcome<C>> {
  const outcome: BatchOutcome<C> = { placed: 0, refused: [], inDoubt: 0 };
  if (orders.length === 0) return outcome;
  const token = randomBytes(16).toString('hex');
  const intents = await commitIntents(deps, kind, orders, token);
  if (intents.length === 0) return outcome;
  const ids = intents.flatMap((i) => [i.claim.operationId, i.chargeOperationId]);
  // The batch holds its operations while it works, as one owner holds one.
  const release = holdOperations(deps, ids, token);
  try {
    const answers = await askGateway(deps, intents as Intent<unknown, unknown>[]);
    const approved: { intent: Intent<I, C>; transactionId: string }[] = [];
    const unknown: Intent<I, C>[] = [];
    for (const [index, intent] of intents.entries()) {
      const answer = answers[index] ?? { outcome: 'unknown' };
      if (answer.outcome === 'approved') approved.push({ intent, transactionId: answer.transactionId });
      else if (answer.outcome === 'unknown') unknown.push(intent);
      else {
        await giveBack(deps, kind, token, intent, answer);
        outcome.refused.push({ claim: intent.claim, error: answer.error });
      }
    }
    try {
      outcome.placed = await recordApproved(deps, kind, token, approved);
    } catch (error) {
      // Charged but not recorded (the database went away): recovery confirms them from the gateway.
      unknown.push(...approved.map((a) => a.intent));
      deps.log.warn({ err: error, orders: approved.length }, 'approved charges left to reconciliation');
    }
    outcome.inDoubt = unknown.length;
    await handOverOperations(
      deps,
      unknown.flatMap((i) => [i.claim.operationId, i.chargeOperationId]),
      token,
    );
    deps.mailer.kick();
    return outcome;
  } finally {
    release();
  }
}

/**
 * Splits orders into batches of at most `size` with one order per client each, so that a
 * client's orders go one after the other, in the order given.
 */
export function batchesOf<O extends { clientId: string }>(orders: readonly O[], size: number): O[][] {
  const batches: { orders: O[]; clients: Set<string> }[] = [];
  for (const order of orders) {
    // After the client's last batch so far: a client's later order never goes before an earlier one.
    const last = batches.findLastIndex((b) => b.clients.has(order.clientId));
    let batch = batches.slice(last + 1).find((b) => b.orders.length < size);
    if (!batch) {
      batch = { orders: [], clients: new Set() };
      batches.push(batch);
    }
    batch.orders.push(order);
    batch.clients.add(order.clientId);
  }
  return batches.map((b) => b.orders);
}
