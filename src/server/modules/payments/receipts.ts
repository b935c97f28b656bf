import { and, eq, inArray } from 'drizzle-orm';
import { isoDateOf, isoToUsDate } from '../../../domain/dates';
import { paymentPurposeLabel, type Receipt } from '../../../domain/receipt';
import type { Database } from '../../db/client';
import { clientContact, clientFullName } from '../clients/client-directory';
import { payments } from './schema';

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
  const brand = payment.methodKind === 'card' ? (payment.methodBrand ?? 'Card') : 'Bank account';
  return {
    clientId: payment.clientId,
    receipt: {
      clientName: clientFullName(client),
      clientActId: client.clientActId,
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
