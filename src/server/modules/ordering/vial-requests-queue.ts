import { and, asc, count, eq, inArray, isNotNull, isNull, ne, or } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cancellationMessages, staffCancelRequestSchema } from '../../../domain/cell-request-cancellation';
import { isoDateOf } from '../../../domain/dates';
import { errorBodySchema } from '../../../domain/errors';
import { formatUsd } from '../../../domain/money';
import { cardProcessingFee } from '../../../domain/payments';
import { type CreateLabel, createLabelSchema, defaultDeclaredContents } from '../../../domain/shipment';
import { orderNumber } from '../../../domain/site';
import {
  approveVipPriceRequestSchema,
  confirmVipPriceRequestSchema,
  queueMessages,
  shipRequestSchema,
  type VialQueueItem,
  vialQueueActionResponseSchema,
  vialQueueResponseSchema,
  vialRequestIdParamsSchema,
} from '../../../domain/staff-queues';
import type { AppDeps } from '../../app-deps';
import type { Database } from '../../db/client';
import { HttpError, notFound } from '../../lib/http-error';
import { idempotencyKeyOf } from '../../lib/idempotency';
import { type Recovered, type RecoveryRun, runOnce, type Transaction } from '../../lib/run-once';
import { noteResolvedClient, noteShownClients } from '../../plugins/audit';
import { sessionOf } from '../../plugins/sessions';
import { type ClientActivityChange, updateActivity } from '../clients/client-activities';
import { clientContact, clientContacts } from '../clients/client-directory';
import { ledgerRows } from '../payments/ledger';
import {
  type PaidCharge,
  type PaidClaim,
  type PaidOrderDeps,
  type PaidOrderKind,
  type Placement,
  paidOrderRecovery,
  placePaidOrder,
} from '../payments/paid-order';
import { findMethodsOnFile } from '../payments/payment-methods';
import { priceBookInForce } from '../prices/price-book-repository';
import type { StaffQueue } from '../staff/queues/queue';
import { staffNames } from '../staff/staff-accounts';
import { labelDocumentRoute } from './carrier-label-routes';
import { cancelCellRequest, cancellationView, prePaidVialsOf } from './cell-request-cancellation';
import { vialRequests } from './schema';
import {
  createLabel,
  labelDocumentOf,
  type ShippingDeps,
  scansOf,
  shippingTimeline,
  shipRefusal,
  trackNow,
} from './vial-shipping';

/**
 * The vial requests queue: every request not yet delivered, or whose ACT VIP price is still to
 * confirm, oldest first. Staff record the practitioner's approval when it came another way,
 * confirm the ACT VIP price (charged once on the paid-order workflow to the method chosen on the
 * request), mark it shipped with the carrier's tracking number and delivered. Each action runs on
 * the run-once engine keyed by the staff member's submission (a double click answers the first
 * result), changes the request with a conditional update (when two staff act at once, one wins
 * and the other is told), and e-mails the client through the outbox in the same transaction.
 */

const SOURCE = 'ACT Back Office';
const KIND = {
  approve: 'staff-vial-approve',
  price: 'staff-vial-vip-price',
  enterPrice: 'staff-vial-vip-price-entered',
  approvePrice: 'staff-vial-vip-price-approved',
  ship: 'staff-vial-ship',
  deliver: 'staff-vial-deliver',
} as const;

type RequestRow = typeof vialRequests.$inferSelect;
type Deps = PaidOrderDeps;

const inQueue = and(
  ne(vialRequests.status, 'pending'),
  ne(vialRequests.status, 'cancelled'),
  or(
    isNull(vialRequests.deliveredAt),
    and(eq(vialRequests.shippingPriceToBeConfirmed, true), isNull(vialRequests.vipPriceConfirmedAt)),
  ),
);

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The staff member looking at the queue: whether they may approve a price depends on who they are. */
interface Viewer {
  staffId: string;
  level: 'staff' | 'admin';
}

async function queueItems(db: Database, viewer: Viewer, now: Date, id?: string): Promise<VialQueueItem[]> {
  const requests = await db
    .select()
    .from(vialRequests)
    .where(id ? and(eq(vialRequests.id, id), ne(vialRequests.status, 'pending')) : inQueue)
    .orderBy(asc(vialRequests.requestedAt), asc(vialRequests.createdAt));
  const clients = await clientContacts(
    db,
    requests.map((r) => r.clientId),
  );
  const vipCharges = await ledgerRows(
    db,
    requests.map((r) => r.vipPaymentId),
  );
  const enteredBy = await staffNames(
    db,
    requests.map((r) => r.vipPriceEnteredBy),
  );
  const rows = requests.flatMap((request) => {
    const client = clients.get(request.clientId);
    if (!client) return [];
    return [
      {
        request,
        clientActId: client.clientActId,
        firstName: client.firstName,
        lastName: client.lastName,
        vipTransactionId: vipCharges.get(request.vipPaymentId ?? '')?.gatewayTransactionId ?? null,
        enteredByName: enteredBy.get(request.vipPriceEnteredBy ?? ''),
      },
    ];
  });
  // A VIP price carries the card fee of the book in force when its request was placed.
  const feeOn = new Map<string, number>();
  for (const { request: r } of rows) {
    const day = isoDateOf(r.createdAt);
    if (r.paymentMethod === 'Credit Card' && !feeOn.has(day)) {
      feeOn.set(day, (await priceBookInForce(db, r.createdAt)).book.cardProcessingFeeBasisPoints);
    }
  }
  const scans = await scansOf(
    db,
    rows.map(({ request: r }) => r.id),
  );
  return Promise.all(
    rows.map(async ({ request: r, ...client }) => ({
      id: r.id,
      clientId: r.clientId,
      clientActId: client.clientActId,
      clientName: `${client.firstName} ${client.lastName}`,
      status: r.status,
      requestedAt: (r.requestedAt ?? r.createdAt).toISOString(),
      vials: r.vials,
      prePaidVials: prePaidVialsOf(r),
      bioInsuranceVialsUsed: r.bioInsuranceVialsUsed,
      longevityVialsUsed: r.longevityVialsUsed,
      shippingMethod: r.shippingMethod,
      shipmentDate: r.shipmentDate,
      shipTo: `${r.clinicName ? `${r.clinicName}, ` : ''}${r.contactFirstName} ${r.contactLastName}, ${r.street}, ${r.city}, ${r.state} ${r.zip}`,
      paymentMethod: r.paymentMethod,
      paymentDescription: r.paymentDescription,
      totalCents: r.totalCents,
      shippingPriceToBeConfirmed: r.shippingPriceToBeConfirmed,
      approvedByPractitionerAt: iso(r.approvedByPractitionerAt),
      vipPriceConfirmedAt: iso(r.vipPriceConfirmedAt),
      vipPriceCents: r.vipPriceConfirmedAt ? r.vipPriceCents : null,
      vipTransactionId: r.vipPriceConfirmedAt ? client.vipTransactionId : null,
      vipPriceAwaitingApproval:
        awaitsApproval(r) && r.vipPriceEnteredAt && r.vipPriceCents !== null
          ? {
              amountCents: r.vipPriceCents,
              enteredBy: client.enteredByName ?? 'a former staff member',
              enteredAt: r.vipPriceEnteredAt.toISOString(),
              canApprove: viewer.level === 'admin' && viewer.staffId !== r.vipPriceEnteredBy,
            }
          : null,
      cardFeeBasisPoints: r.paymentMethod === 'Credit Card' ? (feeOn.get(isoDateOf(r.createdAt)) ?? 0) : 0,
      shippedAt: iso(r.shippedAt),
      trackingNumber: r.trackingNumber,
      deliveredAt: iso(r.deliveredAt),
      cancellation: await cancellationView(db, r, now),
      shipping: shippingTimeline(r, scans.get(r.id) ?? []),
      hasLabel: r.labelDocumentId !== null,
      suggestedContents: defaultDeclaredContents(r.vials),
      objectionDeadline: iso(r.objectionDeadline),
    })),
  );
}

/** A price entered above the approval limit, not yet approved (nor being charged, nor charged). */
const awaitsApproval = (r: RequestRow) =>
  r.vipPriceEnteredBy !== null && r.vipPriceOperationId === null && r.vipPriceConfirmedAt === null;

async function requestRow(db: Database | Transaction, id: string): Promise<RequestRow> {
  const [row] = await db.select().from(vialRequests).where(eq(vialRequests.id, id)).limit(1);
  if (!row || row.status === 'pending') throw notFound();
  return row;
}

const INTERRUPTED = 'The action was interrupted. Please try again.';

const conflict = (message: string) => new HttpError('ALREADY_COMPLETED', message);

/** The request's e-mail to its client, in the transaction of the change it tells. */
async function tellClient(
  tx: Transaction,
  deps: Pick<Deps, 'mailer'>,
  row: RequestRow,
  event: string,
  lines: string[],
) {
  const client = await clientContact(tx, row.clientId);
  if (!client) return;
  await deps.mailer.enqueue(
    tx,
    {
      to: client.email,
      subject: 'Client Portal: your stem cell request',
      text: [
        ...lines,
        `You can follow the request in the Client Portal: request ${orderNumber('VR', row.id)}.`,
      ].join('\n\n'),
    },
    { dedupeKey: `vial-request:${row.id}:${event}` },
  );
}

async function setActivityStage(tx: Transaction, row: RequestRow, change: ClientActivityChange) {
  if (row.clientActivityId) await updateActivity(tx, row.clientActivityId, change);
}

interface SimpleClaim {
  requestId: string;
}

/** A simple action cut short before it committed: nothing happened; the staff member tries again. */
async function recoverSimple(run: RecoveryRun<{ message: string }>): Promise<Recovered> {
  await run.fail(new HttpError('IDEMPOTENCY_CONFLICT', INTERRUPTED), async () => {});
  return 'settled';
}

/** An action that changes only our records: one conditional update and its e-mail, one answer. */
function simpleAction(
  deps: Deps,
  input: { staffId: string; key: string; kind: string; requestId: string; body: unknown; message: string },
  apply: (tx: Transaction) => Promise<void>,
): Promise<{ message: string }> {
  return runOnce<SimpleClaim, { message: string }>(deps, {
    scope: `staff:${input.staffId}`,
    key: input.key,
    kind: input.kind,
    request: { id: input.requestId, body: input.body },
    claim: async () => ({ requestId: input.requestId }),
    release: async () => {},
    recover: (run) => recoverSimple(run),
    async work(run) {
      const answer = await run.succeed(apply, { message: input.message });
      deps.mailer.kick();
      return answer;
    },
  });
}

/** Records the practitioner's approval when it came another way (a call, a fax, a letter). */
async function recordApproval(deps: Deps, staffId: string, key: string, requestId: string) {
  return simpleAction(
    deps,
    { staffId, key, kind: KIND.approve, requestId, body: {}, message: queueMessages.approvalRecorded },
    async (tx) => {
      const now = deps.clock.now();
      const before = await requestRow(tx, requestId);
      const [row] = await tx
        .update(vialRequests)
        .set({
          approvedByPractitionerAt: now,
          ...(before.status === 'requested' ? { status: 'approved' as const } : {}),
        })
        .where(and(eq(vialRequests.id, requestId), isNull(vialRequests.approvedByPractitionerAt)))
        .returning();
      if (!row) throw conflict(queueMessages.alreadyApproved);
      await setActivityStage(tx, row, { cellRequestApprovedByPractitioner: true, stageName: 'Approved' });
      await tellClient(tx, deps, row, 'approved', [
        `Your practitioner's approval of your stem cell request was recorded.`,
      ]);
    },
  );
}

async function markShipped(
  deps: Deps,
  staffId: string,
  key: string,
  requestId: string,
  body: { trackingNumber: string; courier?: string | undefined },
) {
  const tracking = body.trackingNumber;
  const courier = body.courier?.trim() || null;
  return simpleAction(
    deps,
    {
      staffId,
      key,
      kind: KIND.ship,
      requestId,
      body: { trackingNumber: tracking, ...(courier ? { courier } : {}) },
      message: queueMessages.shipped,
    },
    async (tx) => {
      const before = await requestRow(tx, requestId);
      if (before.shippedAt) throw conflict(queueMessages.alreadyShipped);
      // Refused, not warned: no shipment before the practitioner's approval (nor an unconfirmed VIP price).
      const refusal = shipRefusal(before, deps.clock.now());
      if (refusal) throw refusal;
      const [row] = await tx
        .update(vialRequests)
        .set({ status: 'shipped', shippedAt: deps.clock.now(), trackingNumber: tracking, courier })
        .where(
          and(
            eq(vialRequests.id, requestId),
            isNull(vialRequests.shippedAt),
            isNotNull(vialRequests.approvedByPractitionerAt),
            inArray(vialRequests.status, ['requested', 'approved']),
          ),
        )
        .returning();
      if (!row) throw conflict(queueMessages.alreadyShipped);
      await setActivityStage(tx, row, { stageName: 'Shipped' });
      await tellClient(tx, deps, row, 'shipped', [
        `Your stem cell request shipped by ${courier ?? row.shippingMethod}.`,
        `${courier ? 'Reference' : 'Tracking number'}: ${tracking}`,
      ]);
    },
  );
}

async function markDelivered(deps: Deps, staffId: string, key: string, requestId: string) {
  return simpleAction(
    deps,
    { staffId, key, kind: KIND.deliver, requestId, body: {}, message: queueMessages.delivered },
    async (tx) => {
      const before = await requestRow(tx, requestId);
      if (!before.shippedAt) throw new HttpError('NOT_ALLOWED_NOW', queueMessages.notShipped);
      const [row] = await tx
        .update(vialRequests)
        .set({ status: 'delivered', deliveredAt: deps.clock.now() })
        .where(
          and(
            eq(vialRequests.id, requestId),
            isNotNull(vialRequests.shippedAt),
            isNull(vialRequests.deliveredAt),
          ),
        )
        .returning();
      if (!row) throw conflict(queueMessages.alreadyDelivered);
      await setActivityStage(tx, row, { stageName: 'Delivered' });
      await tellClient(tx, deps, row, 'delivered', ['Your stem cell request was delivered.']);
    },
  );
}

interface VipClaim {
  requestId: string;
  amountCents: number;
  /** The admin approving a price entered above the approval limit (null: charged as entered). */
  approvedBy?: string | null;
}

type ActionAnswer = { message: string };

/** Price: the staff member's amount, plus the card fee of the book in force when it was placed. */
async function priceVipShipping(
  deps: Deps,
  row: RequestRow,
  amountCents: number,
  approvedBy: string | null,
): Promise<Placement<VipClaim>> {
  const payment = await vipPaymentMethod(deps, row);
  const { book } = await priceBookInForce(deps.db, row.createdAt);
  return {
    charge: {
      source: SOURCE,
      purpose: 'vial_request_vip_shipping',
      amountCents,
      feeCents: cardProcessingFee(book, amountCents, payment.kind),
      payment,
      description: 'ACT VIP shipping of a stem cell request',
    },
    claim: (tx, operationId) => claimVipPrice(tx, row, operationId, amountCents, approvedBy),
  };
}

/**
 * Claim: the request is taken for this submission with a conditional update, so a second
 * confirmation, by anyone, is told. An approval needs that very price awaiting approval, entered
 * by another member; a price at or below the limit replaces one awaiting approval.
 */
async function claimVipPrice(
  tx: Transaction,
  row: RequestRow,
  operationId: string,
  amountCents: number,
  approvedBy: string | null,
): Promise<VipClaim & { clientId: string }> {
  const free = and(
    eq(vialRequests.id, row.id),
    ne(vialRequests.status, 'cancelled'),
    eq(vialRequests.shippingMethod, 'ACT VIP'),
    isNull(vialRequests.vipPriceOperationId),
    isNull(vialRequests.vipPriceConfirmedAt),
  );
  const [claimed] = await tx
    .update(vialRequests)
    .set(
      approvedBy
        ? { vipPriceOperationId: operationId }
        : {
            vipPriceOperationId: operationId,
            vipPriceCents: amountCents,
            vipPriceEnteredBy: null,
            vipPriceEnteredAt: null,
          },
    )
    .where(
      approvedBy
        ? and(
            free,
            eq(vialRequests.vipPriceCents, amountCents),
            isNotNull(vialRequests.vipPriceEnteredBy),
            ne(vialRequests.vipPriceEnteredBy, approvedBy),
          )
        : free,
    )
    .returning({ id: vialRequests.id });
  if (!claimed) throw claimRefusal(await requestRow(tx, row.id), approvedBy);
  return { requestId: row.id, clientId: row.clientId, amountCents, approvedBy };
}

/** Confirm: the timeline's column, the request's shipping and payment, the client's e-mail. */
async function confirmVipPriceCharged(
  tx: Transaction,
  deps: Deps,
  claim: PaidClaim<VipClaim>,
  charge: PaidCharge | null,
): Promise<ActionAnswer> {
  if (!charge) throw new Error('an ACT VIP price is always charged');
  const [row] = await tx
    .update(vialRequests)
    .set({
      vipPriceConfirmedAt: deps.clock.now(),
      vipPaymentId: charge.paymentId,
      shippingCents: claim.amountCents,
      ...(claim.approvedBy ? { vipPriceApprovedBy: claim.approvedBy } : {}),
    })
    .where(and(eq(vialRequests.id, claim.requestId), eq(vialRequests.vipPriceOperationId, claim.operationId)))
    .returning();
  if (!row) throw notFound();
  const method =
    charge.kind === 'card'
      ? `${charge.brand ?? 'card'} ending in ${charge.last4}`
      : `bank account ending in ${charge.last4}`;
  await tellClient(tx, deps, row, 'vip-price', [
    `The ACT VIP shipping price of your stem cell request is ${formatUsd(claim.amountCents)}.`,
    `We charged ${formatUsd(charge.totalCents)} to your ${method}${charge.feeCents > 0 ? ` (including a ${formatUsd(charge.feeCents)} card processing fee)` : ''}. Transaction ${charge.transactionId}.`,
  ]);
  return { message: queueMessages.priceConfirmed };
}

/**
 * Give back (a decline, nothing charged): another confirmation may follow. A price awaiting
 * approval stays awaiting it.
 */
async function giveBackVipPrice(tx: Transaction, claim: PaidClaim<VipClaim>) {
  await tx
    .update(vialRequests)
    .set(
      claim.approvedBy ? { vipPriceOperationId: null } : { vipPriceOperationId: null, vipPriceCents: null },
    )
    .where(
      and(
        eq(vialRequests.id, claim.requestId),
        eq(vialRequests.vipPriceOperationId, claim.operationId),
        isNull(vialRequests.vipPriceConfirmedAt),
      ),
    );
}

/** The ACT VIP price on the paid-order workflow: entered at or below the limit, or approved above it. */
const vipPriceOrder = (kind: string): PaidOrderKind<VipClaim, ActionAnswer> => ({
  kind,
  confirm: confirmVipPriceCharged,
  giveBack: giveBackVipPrice,
  async stillClaimed(deps, claim) {
    const [row] = await deps.db
      .select({ operationId: vialRequests.vipPriceOperationId })
      .from(vialRequests)
      .where(eq(vialRequests.id, claim.requestId))
      .limit(1);
    return row?.operationId === claim.operationId;
  },
  messages: { interrupted: INTERRUPTED, notPaid: 'The charge did not go through and nothing was charged.' },
});
const vipPrice = { entered: vipPriceOrder(KIND.price), approved: vipPriceOrder(KIND.approvePrice) };

/** The method on file the client chose on the request, to charge the ACT VIP price to. */
async function vipPaymentMethod(deps: Deps, row: RequestRow) {
  if (row.shippingMethod !== 'ACT VIP') throw new HttpError('NOT_ALLOWED_NOW', queueMessages.notVip);
  const kind =
    row.paymentMethod === 'Credit Card' ? 'card' : row.paymentMethod === 'ACH Payment' ? 'ach' : null;
  if (!kind) throw new HttpError('NOT_ALLOWED_NOW', queueMessages.paidByCheck);
  const onFile = (await findMethodsOnFile(deps.db, row.clientId))[kind];
  if (!onFile) {
    const message = queueMessages.noMethodOnFile.replace(
      '{method}',
      kind === 'card' ? 'card' : 'bank account',
    );
    throw new HttpError('NOT_ALLOWED_NOW', message);
  }
  return { kind, onFile } as const;
}

/** Why a request could not be claimed for a price: someone else acted on it first. */
function claimRefusal(now: RequestRow, approvedBy: string | null): HttpError {
  if (now.status === 'cancelled') return new HttpError('NOT_ALLOWED_NOW', queueMessages.cancelled);
  if (now.vipPriceConfirmedAt) return conflict(queueMessages.alreadyConfirmed);
  if (now.vipPriceOperationId) return conflict(queueMessages.confirming);
  if (approvedBy === null) return conflict(queueMessages.confirming);
  if (now.vipPriceEnteredBy === null) return new HttpError('NOT_ALLOWED_NOW', queueMessages.nothingToApprove);
  if (now.vipPriceEnteredBy === approvedBy) return ownPrice();
  return new HttpError('AMOUNT_CHANGED', queueMessages.approvalAmountChanged);
}

const ownPrice = () => new HttpError('SECOND_APPROVAL_REQUIRED', queueMessages.approvalOwnPrice);

/**
 * Charges the ACT VIP price once per submission, through the paid-order workflow, to the method
 * the client chose on the request. `approvedBy`: the admin approving a price another member
 * entered above the approval limit; null: a price at or below the limit, charged as entered.
 */
function chargeVipPrice(
  deps: Deps,
  input: { staffId: string; key: string; row: RequestRow; amountCents: number; approvedBy: string | null },
) {
  const { row, amountCents, approvedBy } = input;
  return placePaidOrder(deps, approvedBy ? vipPrice.approved : vipPrice.entered, {
    owner: { scope: `staff:${input.staffId}` },
    idempotencyKey: input.key,
    request: { id: row.id, amountCents },
    place: () => priceVipShipping(deps, row, amountCents, approvedBy),
  });
}

/**
 * Confirms the ACT VIP price. At or below the price book's approval limit it is charged at once;
 * above it, it is recorded as awaiting approval (nothing charged) until an admin other than the
 * member who entered it approves it. Entering a price again replaces one awaiting approval.
 */
async function confirmVipPrice(
  deps: Deps,
  staffId: string,
  key: string,
  requestId: string,
  amountCents: number,
) {
  const row = await requestRow(deps.db, requestId);
  await vipPaymentMethod(deps, row);
  const { book } = await priceBookInForce(deps.db, deps.clock.now());
  const limit = book.vipPriceApprovalCents;
  if (amountCents <= limit) return chargeVipPrice(deps, { staffId, key, row, amountCents, approvedBy: null });
  const message = queueMessages.priceAwaitsApproval
    .replace('{amount}', formatUsd(amountCents))
    .replace('{limit}', formatUsd(limit));
  return simpleAction(
    deps,
    { staffId, key, kind: KIND.enterPrice, requestId, body: { amountCents }, message },
    async (tx) => {
      const [entered] = await tx
        .update(vialRequests)
        .set({
          vipPriceCents: amountCents,
          vipPriceEnteredBy: staffId,
          vipPriceEnteredAt: deps.clock.now(),
          vipPriceApprovedBy: null,
        })
        .where(
          and(
            eq(vialRequests.id, requestId),
            ne(vialRequests.status, 'cancelled'),
            eq(vialRequests.shippingMethod, 'ACT VIP'),
            isNull(vialRequests.vipPriceOperationId),
            isNull(vialRequests.vipPriceConfirmedAt),
          ),
        )
        .returning({ id: vialRequests.id });
      if (!entered) throw claimRefusal(await requestRow(tx, requestId), null);
    },
  );
}

/**
 * Approves an ACT VIP price entered above the approval limit and charges it: an admin only, and
 * not the member who entered it. The approver names the amount they saw.
 */
async function approveVipPrice(
  deps: Deps,
  approver: Viewer,
  key: string,
  requestId: string,
  amountCents: number,
) {
  if (approver.level !== 'admin') {
    throw new HttpError('SECOND_APPROVAL_REQUIRED', queueMessages.approvalNotAdmin);
  }
  const row = await requestRow(deps.db, requestId);
  if (row.vipPriceEnteredBy === approver.staffId) throw ownPrice();
  return chargeVipPrice(deps, {
    staffId: approver.staffId,
    key,
    row,
    amountCents,
    approvedBy: approver.staffId,
  });
}

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  402: errorBodySchema,
  404: errorBodySchema,
  409: errorBodySchema,
  422: errorBodySchema,
  503: errorBodySchema,
};

/** Who acts on which request, with which submission. */
interface Actor {
  deps: Deps & ShippingDeps;
  viewer: Viewer;
  staffId: string;
  key: string;
  requestId: string;
}

const idempotencyHeaders = z.object({ 'idempotency-key': z.string().optional() });

function viewerOf(request: FastifyRequest): Viewer {
  const session = sessionOf(request, 'staff');
  return { staffId: session.staffId, level: session.level };
}

const vialRequestRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/queues/vial-requests',
    {
      config: { audit: 'read-queue' },
      schema: {
        summary: 'Vial requests not yet delivered, or whose ACT VIP price is to confirm: oldest first',
        tags: ['staff queues'],
        response: { 200: vialQueueResponseSchema, 401: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (request) => {
      const requests = await queueItems(deps.db, viewerOf(request), deps.clock.now());
      noteShownClients(
        sessionOf(request, 'staff'),
        requests.map((r) => r.clientId),
      );
      return { requests };
    },
  );

  /** Each action: the staff member's session, the request's client on the audit row, the key. */
  const act =
    <B>(run: (actor: Actor, body: B) => Promise<{ message: string }>) =>
    async (request: FastifyRequest) => {
      const session = sessionOf(request, 'staff');
      const key = idempotencyKeyOf(request.headers);
      const { id } = request.params as { id: string };
      const row = await requestRow(deps.db, id);
      noteResolvedClient(session, row.clientId);
      const viewer = viewerOf(request);
      const actor = {
        deps: { ...deps, log: request.log },
        viewer,
        staffId: session.staffId,
        key,
        requestId: row.id,
      };
      const { message } = await run(actor, (request.body ?? {}) as B);
      const [item] = await queueItems(deps.db, viewer, deps.clock.now(), row.id);
      if (!item) throw notFound();
      return { message, request: item };
    };

  const action = (summary: string, body?: z.ZodType) => ({
    config: { audit: 'change-vial-request' as const },
    schema: {
      summary,
      description: 'Needs an Idempotency-Key header: a repeat answers the first result.',
      tags: ['staff queues'],
      params: vialRequestIdParamsSchema,
      headers: idempotencyHeaders,
      ...(body ? { body } : {}),
      response: { 200: vialQueueActionResponseSchema, ...errors },
    },
  });

  app.post(
    '/vial_requests/:id/approve',
    action("Records the practitioner's approval of a vial request, when it came another way"),
    act((a) => recordApproval(a.deps, a.staffId, a.key, a.requestId)),
  );
  app.post(
    '/vial_requests/:id/confirm_vip_price',
    action(
      'Confirms the ACT VIP price of a vial request and charges it once (plus the card fee of the price book in force when it was placed, by card) to the method chosen on it',
      confirmVipPriceRequestSchema,
    ),
    act((a, body: { amountCents: number }) =>
      confirmVipPrice(a.deps, a.staffId, a.key, a.requestId, body.amountCents),
    ),
  );
  app.post(
    '/vial_requests/:id/approve_vip_price',
    action(
      'Approves an ACT VIP price entered above the approval limit of the price book and charges it once: an admin other than the member who entered it',
      approveVipPriceRequestSchema,
    ),
    act((a, body: { amountCents: number }) =>
      approveVipPrice(a.deps, a.viewer, a.key, a.requestId, body.amountCents),
    ),
  );
  app.post(
    '/vial_requests/:id/ship',
    action("Marks a vial request shipped with the carrier's tracking number", shipRequestSchema),
    act((a, body: { trackingNumber: string; courier?: string }) =>
      markShipped(a.deps, a.staffId, a.key, a.requestId, body),
    ),
  );
  app.post(
    '/vial_requests/:id/create_label',
    action(
      "Creates the FedEx label of an approved request (PRIORITY_OVERNIGHT from the laboratory, the declared contents and the dry shipper's id as entered), marks it shipped with the tracking number and tells the client and the clinic. Refused before the practitioner's approval; once per request",
      createLabelSchema,
    ),
    act((a, body: CreateLabel) =>
      createLabel(a.deps, { staffId: a.staffId, key: a.key, requestId: a.requestId, body }),
    ),
  );
  app.post(
    '/vial_requests/:id/track',
    action("Asks the carrier for the shipment's scans now; the delivery scan marks the request delivered"),
    act(async (a) => {
      await trackNow(a.deps, a.requestId);
      return { message: queueMessages.tracked };
    }),
  );
  labelDocumentRoute(app, deps, {
    url: '/vial_requests/:id/label',
    summary: 'The FedEx label of a shipped request, to print (PDF)',
    labelOf: (requestId) => labelDocumentOf(deps, requestId),
  });
  app.post(
    '/vial_requests/:id/cancel',
    action(
      'Cancels a vial request with a reason, by the cancellation policy: everything refunded up to 2:00 PM Eastern two business days before delivery, the replacement fee kept after it; refused once shipped. A repeat answers the first cancellation',
      staffCancelRequestSchema,
    ),
    act(async (a, body: { reason: string }) => {
      const reason = body.reason.trim();
      if (!reason)
        throw new HttpError('VALIDATION', cancellationMessages.reasonRequired, {
          reason: cancellationMessages.reasonRequired,
        });
      await cancelCellRequest(a.deps, { clientId: null, id: a.requestId, staffId: a.staffId, reason });
      return { message: queueMessages.requestCancelled };
    }),
  );
  app.post(
    '/vial_requests/:id/deliver',
    action('Marks a shipped vial request delivered'),
    act((a) => markDelivered(a.deps, a.staffId, a.key, a.requestId)),
  );
};

export const vialRequestsQueue: StaffQueue = {
  key: 'vial-requests',
  title: 'Vial Requests',
  async count(database) {
    const [row] = await database.select({ n: count() }).from(vialRequests).where(inQueue);
    return row?.n ?? 0;
  },
  routes: vialRequestRoutes,
  recoveries: (deps) => ({
    [KIND.approve]: recoverSimple,
    [KIND.ship]: recoverSimple,
    [KIND.deliver]: recoverSimple,
    [KIND.enterPrice]: recoverSimple,
    [KIND.price]: paidOrderRecovery(deps, vipPrice.entered),
    [KIND.approvePrice]: paidOrderRecovery(deps, vipPrice.approved),
  }),
};
