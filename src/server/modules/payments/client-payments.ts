import { and, desc, eq, inArray } from 'drizzle-orm';
import { isoDateOf } from '../../../domain/dates';
import { paymentPurposeLabel } from '../../../domain/receipt';
import type { StaffPayment, StaffRefund } from '../../../domain/refunds';
import type { Database } from '../../db/client';
import { staffNames } from '../staff/staff-accounts';
import { paidWith, paymentTransactionOf } from './receipts';
import { payments, refunds } from './schema';

/**
 * A client's approved payments as the staff record lists them: each with its refunds, what was
 * refunded, what is held for a second admin's approval and what is left to refund. `viewer` says
 * who may approve what: an admin who did not ask for it.
 */
export async function staffClientPayments(
  db: Database,
  clientId: string,
  viewer: { staffId: string; admin: boolean },
): Promise<StaffPayment[]> {
  const charges = await db
    .select()
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.status, 'approved')))
    .orderBy(desc(payments.createdAt));
  if (charges.length === 0) return [];
  const rows = await db
    .select()
    .from(refunds)
    .where(
      inArray(
        refunds.paymentId,
        charges.map((c) => c.id),
      ),
    )
    .orderBy(desc(refunds.createdAt));
  const names = await staffNames(db, [...rows.map((r) => r.requestedBy), ...rows.map((r) => r.decidedBy)]);
  const nameOf = (id: string | null) => (id ? (names.get(id) ?? 'a former staff member') : null);
  return charges.map((charge) => {
    const own = rows.filter((r) => r.paymentId === charge.id);
    const sum = (statuses: readonly string[]) =>
      own.filter((r) => statuses.includes(r.status)).reduce((total, r) => total + r.amountCents, 0);
    const refundedCents = sum(['in_progress', 'refunded', 'voided']);
    const awaitingApprovalCents = sum(['awaiting_approval']);
    return {
      id: charge.id,
      paidOn: isoDateOf(charge.completedAt ?? charge.createdAt),
      description: paymentPurposeLabel(charge.purpose),
      method: paidWith(charge),
      transactionId: paymentTransactionOf(charge),
      totalCents: charge.totalCents,
      refundedCents,
      awaitingApprovalCents,
      leftCents: charge.totalCents - refundedCents - awaitingApprovalCents,
      refunds: own.map((r): StaffRefund => {
        const awaiting = r.status === 'awaiting_approval';
        const askedByYou = awaiting && r.requestedBy === viewer.staffId;
        return {
          id: r.id,
          amountCents: r.amountCents,
          status: r.status,
          reason: r.reason,
          requestedBy: nameOf(r.requestedBy),
          requestedAt: r.createdAt.toISOString(),
          decidedBy: nameOf(r.decidedBy),
          completedAt: r.completedAt?.toISOString() ?? null,
          reference: r.reference,
          message: r.status === 'failed' ? r.message : null,
          askedByYou,
          canApprove: awaiting && viewer.admin && !askedByYou,
        };
      }),
    };
  });
}
