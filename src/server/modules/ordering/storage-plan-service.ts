import { and, desc, eq } from 'drizzle-orm';
import { tissueLabels } from '../../../domain/cell-request';
import { todayFor } from '../../../domain/client';
import { isoToUsDate } from '../../../domain/dates';
import { formatUsd } from '../../../domain/money';
import { type BankDetails, checkInstructions, orderNumber, planCheckMemo } from '../../../domain/site';
import {
  choiceOf,
  priceStoragePlan,
  type SendStoragePlan,
  type SendStoragePlanResponse,
  type StoragePlanOrder,
  storagePlanMessages,
} from '../../../domain/storage-plans';
import { notFound } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { refuseChangedOrderTotal } from '../../lib/shown-amounts';
import { recordActivity } from '../clients/client-activities';
import { clientContact } from '../clients/client-directory';
import { grantStoragePlan } from '../clients/client-holdings';
import { describePayment, resolveFormPayment } from '../forms/form-payment';
import type { OneOffCharge } from '../payments/one-off-charge';
import {
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  type Placement,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { priceBookInForce } from '../prices/price-book-repository';
import { storagePlanOrders } from './schema';

/**
 * send_StoragePlan: a client's Banking and Storage Plans order. The server prices the choice
 * from the price book and refuses a shown total that differs (409, nothing charged). On the
 * run-once engine the claim records the order, the ledger charges it once (card or ACH), and the
 * order is applied in one transaction with its answer: the storage paid-until date moves on by
 * the plan's years from the later of today and the current date, the vials are added, the Client
 * Activity row and the confirmation e-mail with its receipt PDF are written. A check order is
 * recorded as awaiting the check and applies nothing until the bank records the check.
 */

/** The bank's details name where a check goes. */
export type StoragePlanDeps = PaidOrderDeps & { config: { bank: BankDetails } };

const m = storagePlanMessages;
const SOURCE = 'Client Portal';
const KIND = 'storage-plan';
const PURPOSE = 'storage_plan';

export type PlanOrderRow = typeof storagePlanOrders.$inferSelect;
type OrderRow = PlanOrderRow;

interface PlanClaim {
  orderId: string;
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
export function planNames(row: Pick<OrderRow, 'storageYears' | 'bankingPlanName'>): string {
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
  const before = await clientContact(tx, row.clientId);
  if (!before) throw notFound();
  // One statement: a concurrent order of the same client extends from this one's result.
  const after = await grantStoragePlan(
    tx,
    row.clientId,
    {
      storageYears: row.storageYears,
      bioInsuranceVials: row.bioInsuranceVials,
      longevityVials: row.longevityVials,
    },
    today,
    now,
  );
  const activityId = await recordActivity(tx, {
    clientId: row.clientId,
    type: activityType(row),
    closeDate: today,
    purchasedPlanName: planNames(row),
    stageName: 'Closed Won',
    paymentId: payment.paymentId,
    amountCents: payment.amountCents,
  });
  const [updated] = await tx
    .update(storagePlanOrders)
    .set({
      paymentId: payment.paymentId,
      transactionId: payment.transactionId,
      clientActivityId: activityId,
      paidUntilBefore: before.annualStoragePaidUntil,
      paidUntilAfter: after?.paidUntil ?? before.annualStoragePaidUntil,
    })
    .where(eq(storagePlanOrders.id, input.orderId))
    .returning();
  if (!updated) throw notFound();
  const text = [
    `Dear ${before.firstName},`,
    `Thank you for your Banking and Storage Plans order ${orderNumber('SP', updated.id)}.`,
    ...summaryLines(updated),
    payment.paidLine(updated),
    ...(updated.storageYears > 0 && updated.paidUntilAfter
      ? [`Your annual storage is now paid until ${isoToUsDate(updated.paidUntilAfter)}.`]
      : []),
    ...(updated.bioInsuranceVials > 0
      ? [`${updated.bioInsuranceVials} Bio-Insurance vials were added to your account.`]
      : []),
    ...(updated.longevityVials > 0
      ? [`${updated.longevityVials} Longevity vials of 1 million cells were added to your account.`]
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
  claim: PaidClaim<PlanClaim>,
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

/** A check order: recorded as awaiting the check, nothing applied; the client is told what to do. */
async function recordCheckOrder(
  tx: Transaction,
  deps: Pick<StoragePlanDeps, 'mailer'>,
  bank: BankDetails,
  claim: PaidClaim<PlanClaim>,
): Promise<OrderRow | undefined> {
  const [row] = await tx
    .update(storagePlanOrders)
    .set({ status: 'awaiting_check' })
    .where(and(eq(storagePlanOrders.id, claim.orderId), eq(storagePlanOrders.status, 'pending')))
    .returning();
  if (!row) return orderRow(tx, claim.orderId);
  const client = await clientContact(tx, claim.clientId);
  if (!client) throw notFound();
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: 'Client Portal: your Banking and Storage Plans order',
      text: [
        `Dear ${client.firstName},`,
        `We received your Banking and Storage Plans order ${orderNumber('SP', row.id)}, to be paid by check.`,
        ...summaryLines(row),
        checkInstructions(bank, row.totalCents, planCheckMemo(client.clientActId, row.id)),
        'Your plan starts when we receive the check; nothing was charged.',
      ].join('\n\n'),
    },
    { dedupeKey: `storage-plan:${row.id}` },
  );
  return row;
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

/**
 * A plans order on the paid-order workflow: a charge applies it, a check order awaits the check
 * (its e-mail says where the check goes: the bank's details).
 */
const storagePlanOrder = (bank: BankDetails): PaidOrderKind<PlanClaim, SendStoragePlanResponse> => ({
  kind: KIND,
  receipt: true,
  async confirm(tx, deps, claim, charge) {
    if (!charge) {
      const row = await recordCheckOrder(tx, deps, bank, claim);
      if (!row) throw notFound();
      return responseOf(row, 0);
    }
    const row = await applyPaidOrder(tx, deps, claim, charge, charge.receiptDocumentId);
    if (!row) throw notFound();
    return responseOf(row, charge.totalCents);
  },
  giveBack: releaseOrder,
  stillClaimed: async (deps, claim) => (await orderRow(deps.db, claim.orderId)) !== undefined,
  messages: {
    interrupted: 'The order was interrupted. Please submit it again.',
    notPaid: 'The payment did not go through and nothing was ordered. Please try again.',
  },
});

/** The recoveries of the storage plan kind, for the reconciliation sweep. */
export function storagePlanRecoveries(deps: StoragePlanDeps) {
  return { [KIND]: paidOrderRecovery(deps, storagePlanOrder(deps.config.bank)) };
}

export async function sendStoragePlan(
  deps: StoragePlanDeps,
  input: { clientId: string; idempotencyKey: string; body: SendStoragePlan },
): Promise<SendStoragePlanResponse> {
  return placePaidOrder(deps, storagePlanOrder(deps.config.bank), {
    owner: { clientId: input.clientId },
    idempotencyKey: input.idempotencyKey,
    request: input.body,
    place: () => priceStoragePlanOrder(deps, input),
  });
}

/** Prices a new plans order from the book in force: its claim and its charge (none by check). */
async function priceStoragePlanOrder(
  deps: StoragePlanDeps,
  input: { clientId: string; idempotencyKey: string; body: SendStoragePlan },
): Promise<Placement<PlanClaim>> {
  const { db, clock } = deps;
  const { clientId, body } = input;
  const today = todayFor(clock.now());
  if (!(await clientContact(db, clientId))) throw notFound();

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

  return {
    charge:
      payment.kind === 'check'
        ? null
        : {
            source: SOURCE,
            purpose: PURPOSE,
            amountCents: price.amountCents,
            feeCents: price.processingFeeCents,
            payment,
            description: `Banking and Storage Plans: ${[price.storageLabel, price.bankingLabel].filter(Boolean).join(' + ')}`,
          },
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
      return { orderId: row.id };
    },
  };
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
