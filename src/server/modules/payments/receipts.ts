import { and, eq } from 'drizzle-orm';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { paymentPurposeLabel, type Receipt } from '../../../domain/receipt';
import type { Database } from '../../db/client';
import { clients, payments } from '../../db/schema';

/** The approved payment's receipt and whose it is; null for anything not approved or unknown. */
export async function findReceipt(
  db: Database,
  paymentId: string,
): Promise<{ clientId: string; receipt: Receipt } | null> {
  const [row] = await db
    .select({
      payment: payments,
      client: { actId: clients.clientActId, first: clients.firstName, last: clients.lastName },
    })
    .from(payments)
    .innerJoin(clients, eq(clients.id, payments.clientId))
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'approved')))
    .limit(1);
  if (!row) return null;
  const { payment, client } = row;
  const brand = payment.methodKind === 'card' ? (payment.methodBrand ?? 'Card') : 'Bank account';
  return {
    clientId: payment.clientId,
    receipt: {
      clientName: `${client.first} ${client.last}`,
      clientActId: client.actId,
      paidOn: isoToUsDate(isoDateOf(payment.completedAt ?? payment.createdAt)),
      description: paymentPurposeLabel(payment.purpose),
      amountCents: payment.amountCents,
      feeCents: payment.feeCents,
      totalCents: payment.totalCents,
      method: payment.methodLast4 ? `${brand} ending in ${payment.methodLast4}` : brand,
      transactionId: payment.gatewayTransactionId ?? payment.reference ?? payment.id,
    },
  };
}
