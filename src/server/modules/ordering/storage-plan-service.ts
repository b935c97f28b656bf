import { and, desc, eq, sql } from 'drizzle-orm';
import { tissueLabels } from '../../../domain/cell-request';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import {
  choiceOf,
  priceStoragePlan,
  type SendStoragePlan,
  type SendStoragePlanResponse,
  type StoragePlanOrder,
  storagePlanMessages,
} from '../../../domain/storage-plans';
import type { AppDeps } from '../../app-deps';
import { clientActivities, clients, operations, storagePlanOrders } from '../../db/schema';
import { storeDocument } from '../../lib/document-store';
import { HttpError, notFound } from '../../lib/http-error';
import { type Recovered, type RecoveryRun, type Run, runOnce, type Transaction } from '../../lib/run-once';
import { refuseChangedOrderTotal } from '../../lib/shown-amounts';
import { describePayment, resolveFormPayment } from '../forms/form-payment';
import { chargeOnce, type OneOffCharge, type PaymentDeps } from '../payments/payment-service';
import { renderReceiptPdf } from '../payments/receipt-pdf';
import { findReceipt } from '../payments/receipts';
import { priceBookInForce } from '../prices/price-book-repository';

/**
 * send_StoragePlan: a client's Banking and Storage Plans order. The server prices the choice
 * from the price book and refuses a shown total that differs (409, nothing charged). On the
 * run-once engine the claim records the order, the ledger charges it once (card or ACH), and the
 * order is applied in one transaction with its answer: the storage paid-until date moves on by
 * the plan's years from the later of today and the current date, the vials are added, the Client
 * Activity row and the confirmation e-mail with its receipt PDF are written. A check order is
 * recorded as awaiting the check and applies nothing until the bank records the check.
 */

export type StoragePlanDeps = PaymentDeps & Pick<AppDeps, 'documentsKey'>;

const m = storagePlanMessages;
const SOURCE = 'Client Portal';
const KIND = 'storage-plan';
const PURPOSE = 'storage_plan';
const RECHECK_AFTER_MS = 60_000;

export type PlanOrderRow = typeof storagePlanOrders.$inferSelect;
type OrderRow = PlanOrderRow;

interface PlanClaim {
  orderId: string;
  clientId: string;
  operationId: string;
  chargeKey: string;
}

/** The order as its client sees it. */
export function storagePlanOrderView(row: OrderRow): StoragePlanOrder {
  return {
    id: row.id,
    status: row.status,
    Annual_Storage_Plan: row.annualStoragePlan,
    storageYears: row.storageYears,
    storageCents: row.storageCents,
    Plan: row.plan,
    bankingPlanName: row.bankingPlanName,
    bioInsuranceVials: row.bioInsuranceVials,
    longevityVials: row.longevityVials,
    bankingCents: row.bankingCents,
    processingFeeCents: row.processingFeeCents,
    totalCents: row.totalCents,
    PaymentMethod: row.paymentMethod,
    paymentDescription: row.paymentDescription,
    TransactionId: row.transactionId,
    paidUntilBefore: row.paidUntilBefore,
    paidUntilAfter: row.paidUntilAfter,
  };
}

async function orderRow(db: StoragePlanDeps['db'] | Transaction, id: string) {
  const [row] = await db.select().from(storagePlanOrders).where(eq(storagePlanOrders.id, id)).limit(1);
  return row;
}

/** The plans of an order in a few words: "5 Year Storage Plan + Bio-Insurance 25 Vials". */
function planNames(row: OrderRow): string {
  return [row.storageYears > 0 ? `${row.storageYears} Year Storage Plan` : null, row.bankingPlanName]
    .filter(Boolean)
    .join(' + ');
}

function activityType(row: OrderRow): string {
  if (row.storageYears > 0 && row.plan !== 'No additional Plan') return 'Banking and Storage Plan Fee';
  if (row.storageYears > 0) return 'Storage Plan Fee';
  return row.plan === 'Longevity Plan' ? 'Longevity Fee' : 'Bio-Insurance Fee';
}

function summaryLines(row: OrderRow): string[] {
  return [
    ...(row.storageYears > 0
      ? [`Annual storage: ${row.storageYears} Year Storage Plan, ${formatUsd(row.storageCents)}`]
      : []),
    ...(row.bankingPlanName ? [`Banking plan: ${row.bankingPlanName}, ${formatUsd(row.bankingCents)}`] : []),
    `Processing fee: ${formatUsd(row.processingFeeCents)}`,
    `Total: ${formatUsd(row.totalCents)}`,
    `Sample type: ${tissueLabels[row.tissue as keyof typeof tissueLabels] ?? row.tissue}`,
  ];
}

/** How an order was paid, for its Client Activity row, its order row and its e-mail. */
export interface PlanPayment {
  paymentId: string | null;
  transactionId: string | null;
  amountCents: number;
  /** The e-mail's sentence on the payment, from the order as applied. */
  paidLine: (row: OrderRow) => string;
  /** More of the order row to set when it is applied (a check's number, amount, date). */
  orderValues?: Partial<typeof storagePlanOrders.$inferInsert>;
}

/**
 * The effects of a paid order, applied once: the row moves from `from` (pending for a card or
 * ACH, awaiting_check for a check) to paid under a guard, whether the work finished normally,
 * recovery found its charge, or staff recorded its check. The storage paid-until date moves on
 * by the plan's years from the later of today and the current date, the vials are added, the
 * Client Activity row and the confirmation e-mail (with its receipt) are written. `applied` says
 * whether this call applied it; otherwise the row is as it stands.
 */
export async function applyPlanOrder(
  tx: Transaction,
  deps: Pick<StoragePlanDeps, 'mailer' | 'clock'>,
  input: {
    orderId: string;
    from: 'pending' | 'awaiting_check';
    payment: PlanPayment;
    receiptDocumentId: string | null;
  },
): Promise<{ row: OrderRow | undefined; applied: boolean }> {
  const now = deps.clock.now();
  const today = todayFor(now);
  const { payment } = input;
  const row = await orderRow(tx, input.orderId);
  if (row?.status !== input.from) return { row, applied: false };
  // The order row first, under its guard: of two at once, one applies and the other stops here.
  const [claimed] = await tx
    .update(storagePlanOrders)
    .set({ status: 'paid', appliedAt: now, ...payment.orderValues })
    .where(and(eq(storagePlanOrders.id, input.orderId), eq(storagePlanOrders.status, input.from)))
    .returning({ id: storagePlanOrders.id });
  if (!claimed) return { row: await orderRow(tx, input.orderId), applied: false };
  const [before] = await tx
    .select({ paidUntil: clients.annualStoragePaidUntil, email: clients.email, first: clients.firstName })
    .from(clients)
    .where(eq(clients.id, row.clientId))
    .limit(1);
  if (!before) throw notFound();
  // One statement: a concurrent order of the same client extends from this one's result.
  const [after] = await tx
    .update(clients)
    .set({
      ...(row.storageYears > 0
        ? {
            annualStoragePaidUntil: sql`(greatest(coalesce(${clients.annualStoragePaidUntil}, ${today}::date), ${today}::date) + make_interval(years => ${row.storageYears}))::date`,
          }
        : {}),
      bioInsuranceVialsAvailable: sql`${clients.bioInsuranceVialsAvailable} + ${row.bioInsuranceVials}`,
      longevityVialsAvailable: sql`${clients.longevityVialsAvailable} + ${row.longevityVials}`,
      ...(row.bioInsuranceVials > 0 ? { lastBioInsurancePurchasedDate: today } : {}),
      updatedAt: now,
    })
    .where(eq(clients.id, row.clientId))
    .returning({ paidUntil: clients.annualStoragePaidUntil });
  const [activity] = await tx
    .insert(clientActivities)
    .values({
      clientId: row.clientId,
      type: activityType(row),
      closeDate: today,
      purchasedPlanName: planNames(row),
      stageName: 'Closed Won',
      paymentId: payment.paymentId,
      amountCents: payment.amountCents,
    })
    .returning({ id: clientActivities.id });
  const [updated] = await tx
    .update(storagePlanOrders)
    .set({
      paymentId: payment.paymentId,
      transactionId: payment.transactionId,
      clientActivityId: activity?.id ?? null,
      paidUntilBefore: before.paidUntil,
      paidUntilAfter: after?.paidUntil ?? before.paidUntil,
    })
    .where(eq(storagePlanOrders.id, input.orderId))
    .returning();
  if (!updated) throw notFound();
  const text = [
    `Dear ${before.first},`,
    `Thank you for your Banking and Storage Plans order ${updated.id}.`,
    ...summaryLines(updated),
    payment.paidLine(updated),
    ...(updated.storageYears > 0 && updated.paidUntilAfter
      ? [`Your annual storage is now paid until ${isoToUsDate(updated.paidUntilAfter)}.`]
      : []),
    ...(updated.bioInsuranceVials > 0
      ? [`${updated.bioInsuranceVials} Bio-Insurance vials were added to your account.`]
      : []),
    ...(updated.longevityVials > 0
      ? [`${updated.longevityVials} Longevity vials were added to your account.`]
      : []),
    ...(input.receiptDocumentId ? ['Your receipt is attached.'] : []),
  ].join('\n\n');
  await deps.mailer.enqueue(
    tx,
    {
      to: before.email,
      subject: 'Client Portal: your Banking and Storage Plans order',
      text,
      ...(input.receiptDocumentId
        ? {
            attachments: [
              {
                documentId: input.receiptDocumentId,
                filename: 'receipt.pdf',
                contentType: 'application/pdf',
              },
            ],
          }
        : {}),
    },
    // A check order had its "mail us a check" e-mail under the plain key.
    { dedupeKey: `storage-plan:${updated.id}${input.from === 'awaiting_check' ? ':check-recorded' : ''}` },
  );
  return { row: updated, applied: true };
}

/** A card or ACH order's charge applied (see applyPlanOrder). */
async function applyPaidOrder(
  tx: Transaction,
  deps: Pick<StoragePlanDeps, 'mailer' | 'clock'>,
  claim: PlanClaim,
  charge: OneOffCharge,
  receiptDocumentId: string | null,
): Promise<OrderRow | undefined> {
  const { row } = await applyPlanOrder(tx, deps, {
    orderId: claim.orderId,
    from: 'pending',
    receiptDocumentId,
    payment: {
      paymentId: charge.paymentId,
      transactionId: charge.transactionId,
      amountCents: charge.totalCents,
      paidLine: (row) =>
        `Paid with ${row.paymentDescription}. We charged ${formatUsd(charge.totalCents)}. Transaction ${charge.transactionId}.`,
    },
  });
  return row;
}

/**
 * Commits the effects with an answer that shows them (the paid-until date as the database
 * computed it): the operation's stored answer is rewritten in the same transaction.
 */
async function succeedApplied(
  run: {
    id: string;
    succeed(effects: (tx: Transaction) => Promise<void>, response: SendStoragePlanResponse): Promise<unknown>;
  },
  apply: (tx: Transaction) => Promise<OrderRow | undefined>,
  provisional: SendStoragePlanResponse,
): Promise<SendStoragePlanResponse> {
  let answer = provisional;
  await run.succeed(async (tx) => {
    const row = await apply(tx);
    if (!row) return;
    answer = responseOf(row, provisional.amountChargedCents);
    await tx
      .update(operations)
      .set({ responseJson: JSON.stringify(answer) })
      .where(eq(operations.id, run.id));
  }, provisional);
  return answer;
}

/** A check order: recorded as awaiting the check, nothing applied; the client is told what to do. */
async function recordCheckOrder(
  tx: Transaction,
  deps: Pick<StoragePlanDeps, 'mailer'>,
  claim: PlanClaim,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(storagePlanOrders)
    .set({ status: 'awaiting_check' })
    .where(and(eq(storagePlanOrders.id, claim.orderId), eq(storagePlanOrders.status, 'pending')))
    .returning();
  if (!row) return orderRow(tx, claim.orderId);
  const [client] = await tx
    .select({ email: clients.email, first: clients.firstName })
    .from(clients)
    .where(eq(clients.id, claim.clientId))
    .limit(1);
  if (!client) throw notFound();
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: 'Client Portal: your Banking and Storage Plans order',
      text: [
        `Dear ${client.first},`,
        `We received your Banking and Storage Plans order ${row.id}, to be paid by check.`,
        ...summaryLines(row),
        `Please mail a check for ${formatUsd(row.totalCents)} to ACT, with your Client ID on it. Your plan starts when we receive the check; nothing was charged.`,
      ].join('\n\n'),
    },
    { dedupeKey: `storage-plan:${row.id}` },
  );
  return row;
}

/** The receipt PDF of an approved charge, kept with the client's documents to be attached. */
async function storeReceipt(deps: StoragePlanDeps, claim: PlanClaim, paymentId: string) {
  const found = await findReceipt(deps.db, paymentId);
  if (!found) return null;
  const now = deps.clock.now();
  const pdf = await renderReceiptPdf(found.receipt, now);
  const stored = await storeDocument(deps.db, deps.documentsKey, {
    clientId: claim.clientId,
    kind: 'receipt',
    fileName: 'receipt.pdf',
    contentType: 'application/pdf',
    content: pdf,
    now,
    operationId: claim.operationId,
  });
  return stored.id;
}

async function releaseOrder(tx: Transaction, claim: PlanClaim) {
  await tx
    .delete(storagePlanOrders)
    .where(and(eq(storagePlanOrders.id, claim.orderId), eq(storagePlanOrders.status, 'pending')));
}

function responseOf(row: OrderRow, amountChargedCents: number): SendStoragePlanResponse {
  return {
    success: true,
    message: m.submitted,
    id: row.id,
    TransactionId: row.transactionId,
    amountChargedCents,
    order: storagePlanOrderView(row),
  };
}

/** An order whose owner died: its charge decides (approved: applied; failed or never sent: given back). */
async function recoverOrder(
  deps: StoragePlanDeps,
  run: RecoveryRun<SendStoragePlanResponse>,
  claim: PlanClaim | null,
): Promise<Recovered> {
  const giveBack = (error: HttpError) =>
    run.fail(error, async (tx) => {
      if (claim) await releaseOrder(tx, claim);
    });
  if (!claim) {
    await giveBack(
      new HttpError('IDEMPOTENCY_CONFLICT', 'The order was interrupted. Please submit it again.'),
    );
    return 'settled';
  }
  const row = await orderRow(deps.db, claim.orderId);
  if (!row) {
    await giveBack(
      new HttpError('IDEMPOTENCY_CONFLICT', 'The order was interrupted. Please submit it again.'),
    );
    return 'settled';
  }
  if (row.paymentMethod === 'Check') {
    await succeedApplied(
      run,
      (tx) => recordCheckOrder(tx, deps, claim),
      responseOf({ ...row, status: 'awaiting_check' }, 0),
    );
    return 'settled';
  }
  const [chargeOp] = await deps.db
    .select()
    .from(operations)
    .where(
      and(eq(operations.scope, `client:${claim.clientId}`), eq(operations.idempotencyKey, claim.chargeKey)),
    )
    .limit(1);
  if (chargeOp?.status === 'running') return { retryAfterMs: RECHECK_AFTER_MS };
  if (chargeOp?.status === 'succeeded') {
    const charge = JSON.parse(chargeOp.responseJson ?? 'null') as OneOffCharge;
    const receipt = await storeReceipt(deps, claim, charge.paymentId);
    await succeedApplied(
      run,
      (tx) => applyPaidOrder(tx, deps, claim, charge, receipt),
      responseOf({ ...row, status: 'paid', transactionId: charge.transactionId }, charge.totalCents),
    );
    return 'settled';
  }
  await giveBack(
    new HttpError(
      'PAYMENT_DECLINED',
      'The payment did not go through and nothing was ordered. Please try again.',
    ),
  );
  return 'settled';
}

/** The recoveries of the storage plan kind, for the reconciliation sweep. */
export function storagePlanRecoveries(deps: StoragePlanDeps) {
  return {
    [KIND]: (run: RecoveryRun<SendStoragePlanResponse>, claim: PlanClaim | null) =>
      recoverOrder(deps, run, claim),
  };
}

export async function sendStoragePlan(
  deps: StoragePlanDeps,
  input: { clientId: string; idempotencyKey: string; body: SendStoragePlan },
): Promise<SendStoragePlanResponse> {
  const { db, clock } = deps;
  const { clientId, body } = input;
  const today = todayFor(clock.now());
  const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, clientId)).limit(1);
  if (!client) throw notFound();

  // The order is priced by the book in force as it is placed.
  const { book } = await priceBookInForce(db, clock.now());
  const price = priceStoragePlan(book, choiceOf(body));
  refuseChangedOrderTotal(
    body,
    price.totalCents,
    `The order total is ${formatUsd(price.totalCents)}. Please review the order summary and submit again.`,
  );
  const payment = await resolveFormPayment(
    db,
    clientId,
    body,
    { first: m.holderFirst, last: m.holderLast, month: m.cardEmpty, year: m.cardEmpty },
    today,
  );
  const paymentDescription = describePayment(payment);
  const chargeKey = `${input.idempotencyKey}:charge`;

  return runOnce<PlanClaim, SendStoragePlanResponse>(deps, {
    scope: `client:${clientId}`,
    key: input.idempotencyKey,
    kind: KIND,
    request: body,
    async claim(tx, operationId) {
      const [row] = await tx
        .insert(storagePlanOrders)
        .values({
          clientId,
          operationId,
          idempotencyKey: input.idempotencyKey,
          status: 'pending',
          annualStoragePlan: body.Annual_Storage_Plan,
          storageYears: price.storageYears,
          storageCents: price.storageCents,
          plan: body.Plan,
          bankingPlanName: price.bankingLabel,
          bioInsuranceVials: price.bioInsuranceVials,
          longevityVials: price.longevityVials,
          bankingCents: price.bankingCents,
          processingFeeCents: price.processingFeeCents,
          totalCents: price.totalCents,
          tissue: body.Tissue_Info,
          paymentMethod: body.PaymentMethod,
          paymentDescription,
          createdAt: clock.now(),
        })
        .returning({ id: storagePlanOrders.id });
      if (!row) throw new Error('the storage plan order was not written');
      return { orderId: row.id, clientId, operationId, chargeKey };
    },
    release: (tx, claim) => releaseOrder(tx, claim),
    recover: (run, claim) => recoverOrder(deps, run, claim),
    async work(run: Run<SendStoragePlanResponse>, claim) {
      const pending = await orderRow(db, claim.orderId);
      if (!pending) throw notFound();
      if (payment.kind === 'check') {
        const answer = await succeedApplied(
          run,
          (tx) => recordCheckOrder(tx, deps, claim),
          responseOf({ ...pending, status: 'awaiting_check' }, 0),
        );
        deps.mailer.kick();
        return answer;
      }
      // From here a failure may leave a charge outside: recovery asks the charge's operation.
      run.setInDoubt(true);
      let charge: OneOffCharge;
      try {
        charge = await chargeOnce(deps, {
          clientId,
          source: SOURCE,
          purpose: PURPOSE,
          idempotencyKey: claim.chargeKey,
          request: body,
          amountCents: price.amountCents,
          feeCents: price.processingFeeCents,
          kind: payment.kind,
          method:
            'onFile' in payment
              ? { onFile: payment.onFile }
              : { token: payment.token, keepOnFile: payment.keepOnFile },
          description: `Banking and Storage Plans: ${[price.storageLabel, price.bankingLabel].filter(Boolean).join(' + ')}`,
        });
      } catch (error) {
        // A definite refusal (a decline, a stale token): nothing moved; the order is given back.
        if (error instanceof HttpError && error.code !== 'PAYMENT_PENDING') run.setInDoubt(false);
        throw error;
      }
      const receipt = await storeReceipt(deps, claim, charge.paymentId);
      const answer = await succeedApplied(
        run,
        (tx) => applyPaidOrder(tx, deps, claim, charge, receipt),
        responseOf({ ...pending, status: 'paid', transactionId: charge.transactionId }, charge.totalCents),
      );
      deps.mailer.kick();
      return answer;
    },
  });
}

/** One order of a client, as applied; another client's id answers the same 404 as an unknown one. */
export async function findStoragePlanOrder(db: StoragePlanDeps['db'], clientId: string, id: string) {
  const [row] = await db
    .select()
    .from(storagePlanOrders)
    .where(and(eq(storagePlanOrders.id, id), eq(storagePlanOrders.clientId, clientId)))
    .limit(1);
  if (!row || row.status === 'pending') throw notFound();
  return storagePlanOrderView(row);
}

export async function listStoragePlanOrders(db: StoragePlanDeps['db'], clientId: string) {
  const rows = await db
    .select()
    .from(storagePlanOrders)
    .where(eq(storagePlanOrders.clientId, clientId))
    .orderBy(desc(storagePlanOrders.createdAt));
  return rows.filter((r) => r.status !== 'pending').map(storagePlanOrderView);
}
