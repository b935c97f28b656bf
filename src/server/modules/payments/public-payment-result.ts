import { and, eq, inArray } from 'drizzle-orm';
import { verificationMessages as v } from '../../../domain/client-verification';
import { PAYMENT_SOURCES, type PublicPaymentResult } from '../../../domain/payment-info';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import { createIdLinkToken, LINK_LIFETIME_MS, readIdLinkToken } from '../../lib/link-tokens';
import { paidWith, paymentTransactionOf } from './receipts';
import { payments } from './schema';

const PUBLIC_SOURCES = [PAYMENT_SOURCES.email, PAYMENT_SOURCES.sms];
const DONE = ['approved', 'saved'] as const;

/** An unknown, altered, expired or other page's result: one answer for all, with the next step. */
export const resultGone = () => new HttpError('NOT_FOUND', v.resultGone);

/**
 * The token naming a public page's save (the ledger row of its idempotency key), for the page's
 * address: it expires 7 days after the payment, so a replayed save answers the same token.
 */
export async function publicPaymentResultToken(
  db: Database,
  secret: Buffer,
  clientId: string,
  idempotencyKey: string,
): Promise<string> {
  const [row] = await db
    .select({ id: payments.id, createdAt: payments.createdAt })
    .from(payments)
    .where(and(eq(payments.clientId, clientId), eq(payments.idempotencyKey, idempotencyKey)))
    .limit(1);
  if (!row) throw new Error('the save has no ledger row');
  return createIdLinkToken(secret, 'payment-result', row.id, row.createdAt, LINK_LIFETIME_MS);
}

/**
 * The save a result token names, if it was made on a public payment page and went through (a
 * method saved, and what was due charged); else the one 404 of `resultGone`.
 */
export async function publicPaymentOfResult(
  db: Database,
  secret: Buffer,
  token: string | undefined,
  now: Date,
) {
  const id = token ? readIdLinkToken(secret, 'payment-result', token, now) : null;
  if (!id) throw resultGone();
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, id), inArray(payments.source, PUBLIC_SOURCES), inArray(payments.status, DONE)))
    .limit(1);
  if (!row) throw resultGone();
  return row;
}

/** What the page shows after paying: the ledger's figures, the method by brand and last 4 only. */
export function publicPaymentResult(row: typeof payments.$inferSelect): PublicPaymentResult {
  const charged = row.status === 'approved' && row.totalCents > 0;
  return {
    message: v.saved,
    page_name: row.source,
    TransactionId: charged ? paymentTransactionOf(row) : null,
    amountCharged: charged ? row.totalCents / 100 : 0,
    processingFee: charged ? row.feeCents / 100 : 0,
    paidWith: paidWith(row),
    receipt: charged,
  };
}
