import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { paymentPurposeLabel, type Receipt, type RefundReceipt } from '../../../domain/receipt';
import type { Database, Executor } from '../../db/client';
import { notFound } from '../../lib/http-error';
import { clientContact, clientFullName } from '../clients/client-directory';
import { renderReceiptPdf, renderRefundReceiptPdf } from './receipt-pdf';
import { payments, refunds } from './schema';

type PaymentRow = typeof payments.$inferSelect;

/** How a receipt names the method a payment was made with: its brand and last 4 only. */
export function paidWith(payment: Pick<PaymentRow, 'methodKind' | 'methodBrand' | 'methodLast4'>): string {
  const brand = payment.methodKind === 'card' ? (payment.methodBrand ?? 'Card') : 'Bank account';
  return payment.methodLast4 ? `${brand} ending in ${payment.methodLast4}` : brand;
}

/** The day a payment was made, as receipts print it (MM/DD/YYYY). */
export const paidOnOf = (payment: Pick<PaymentRow, 'completedAt' | 'createdAt'>) =>
  isoToUsDate(isoDateOf(payment.completedAt ?? payment.createdAt));

/** The transaction number a receipt gives a payment. */
export const paymentTransactionOf = (
  payment: Pick<PaymentRow, 'gatewayTransactionId' | 'reference' | 'id'>,
) => payment.gatewayTransactionId ?? payment.reference ?? payment.id;

/** The approved payment's receipt and whose it is; null for anything not approved or unknown. */
export async function findReceipt(
  db: Database,
  paymentId: string,
): Promise<{ clientId: string; receipt: Receipt } | null> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'approved')))
    .limit(1);
  const client = payment ? await clientContact(db, payment.clientId) : null;
  if (!payment || !client) return null;
  return {
    clientId: payment.clientId,
    receipt: {
      clientName: clientFullName(client),
      clientActId: client.clientActId,
      paidOn: paidOnOf(payment),
      description: paymentPurposeLabel(payment.purpose),
      amountCents: payment.amountCents,
      feeCents: payment.feeCents,
      totalCents: payment.totalCents,
      method: paidWith(payment),
      transactionId: paymentTransactionOf(payment),
    },
  };
}

/** The receipt PDF of an approved payment, drawn now (a renewal's e-mail draws it when it is sent). */
export async function drawReceipt(db: Database, paymentId: string, now: Date): Promise<Uint8Array | null> {
  const found = await findReceipt(db, paymentId);
  return found ? renderReceiptPdf(found.receipt, now) : null;
}

/**
 * The receipt of a refund or void that went through, and whose it is; null for one awaiting
 * approval, under way, declined or failed, or unknown. Readable in the transaction recording it.
 */
export async function findRefundReceipt(
  db: Executor,
  refundId: string,
): Promise<{ clientId: string; receipt: RefundReceipt } | null> {
  const [row] = await db
    .select({ refund: refunds, payment: payments })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(refunds.id, refundId), inArray(refunds.status, ['refunded', 'voided'])))
    .limit(1);
  const client = row ? await clientContact(db, row.refund.clientId) : null;
  if (!row || !client) return null;
  const { refund, payment } = row;
  return {
    clientId: refund.clientId,
    receipt: {
      kind: refund.status === 'voided' ? 'void' : 'refund',
      clientName: clientFullName(client),
      clientActId: client.clientActId,
      refundedOn: isoToUsDate(isoDateOf(refund.completedAt ?? refund.createdAt)),
      amountCents: refund.amountCents,
      payment: {
        paidOn: paidOnOf(payment),
        description: paymentPurposeLabel(payment.purpose),
        totalCents: payment.totalCents,
        transactionId: paymentTransactionOf(payment),
      },
      method: paidWith(payment),
      transactionId: refund.gatewayTransactionId ?? refund.reference,
      reference: refund.reference,
      // A cancellation's reason is the policy's words; a staff member's is their note, not the client's.
      reason: refund.source ? refund.reason : null,
    },
  };
}

/** The status and total of these ledger rows, by id (the activity list shows approved ones as paid). */
export async function paymentOutcomes(
  db: Database,
  paymentIds: readonly (string | null)[],
): Promise<Map<string, { status: string; totalCents: number }>> {
  const ids = [...new Set(paymentIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: payments.id, status: payments.status, totalCents: payments.totalCents })
    .from(payments)
    .where(inArray(payments.id, ids));
  return new Map(rows.map(({ id, ...outcome }) => [id, outcome]));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A payment's receipt, or a refund's (or a void's) that went through, by its ledger id. */
async function findAnyReceipt(db: Database, id: string) {
  const payment = await findReceipt(db, id);
  if (payment) {
    const { clientId, receipt } = payment;
    return {
      clientId,
      clientActId: receipt.clientActId,
      name: 'receipt',
      render: (now: Date) => renderReceiptPdf(receipt, now),
    };
  }
  const refund = await findRefundReceipt(db, id);
  if (!refund) return null;
  const { clientId, receipt } = refund;
  return {
    clientId,
    clientActId: receipt.clientActId,
    name: 'refund-receipt',
    render: (now: Date) => renderRefundReceiptPdf(receipt, now),
  };
}

/**
 * A receipt PDF as the answer, drawn from the ledger, once `mayRead` accepts its client (it throws
 * the same 404 for a client the caller may not see as for an unknown id).
 */
export async function replyWithReceipt(
  reply: FastifyReply,
  db: Database,
  rawId: string,
  now: Date,
  mayRead: (clientId: string) => Promise<unknown>,
) {
  const id = rawId.toLowerCase();
  if (!UUID.test(id)) throw notFound();
  const found = await findAnyReceipt(db, id);
  if (!found) throw notFound();
  await mayRead(found.clientId);
  const pdf = await found.render(now);
  return reply
    .header('cache-control', 'no-store')
    .header(
      'content-disposition',
      `attachment; filename="${found.name}-${found.clientActId}-${id.slice(0, 8)}.pdf"`,
    )
    .type('application/pdf')
    .send(pdf);
}
