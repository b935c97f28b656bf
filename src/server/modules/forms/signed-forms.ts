import { and, desc, eq, inArray } from 'drizzle-orm';
import { isoDateOf } from '../../../domain/dates';
import type { Database } from '../../db/client';
import type { Transaction } from '../../lib/run-once';
import { formSubmissions } from './schema';

/**
 * What the other modules read of a client's forms, through the forms module that owns the
 * submissions: the signed documents of completed forms, and every submission of one client.
 */

type Reader = Database | Transaction;

/** The signed PDF of each completed form of these clients. */
export async function signedFormDocuments(db: Reader, clientIds: readonly string[]) {
  if (clientIds.length === 0) return [];
  return db
    .select({
      clientId: formSubmissions.clientId,
      form: formSubmissions.form,
      documentId: formSubmissions.pdfDocumentId,
    })
    .from(formSubmissions)
    .where(and(inArray(formSubmissions.clientId, [...clientIds]), eq(formSubmissions.status, 'completed')));
}

/** Every submission of the client's forms (completed, pending and rejected ones). */
export async function clientFormSubmissions(db: Reader, clientId: string) {
  return db.select().from(formSubmissions).where(eq(formSubmissions.clientId, clientId));
}

/**
 * The client's infectious disease screening as a release reads it: done (the client's flag or a
 * completed submission), the day it was done, and whether its lab report still waits for review.
 */
export async function screeningFacts(db: Reader, clientId: string, doneOnRecord: boolean) {
  const [latest] = await db
    .select()
    .from(formSubmissions)
    .where(
      and(
        eq(formSubmissions.clientId, clientId),
        eq(formSubmissions.form, 'infectious_disease'),
        eq(formSubmissions.status, 'completed'),
      ),
    )
    .orderBy(desc(formSubmissions.completedAt))
    .limit(1);
  return {
    done: doneOnRecord,
    doneOn: doneOnRecord && latest?.completedAt ? isoDateOf(latest.completedAt) : null,
    awaitingReview: doneOnRecord && Boolean(latest?.labReportDocumentId) && latest?.labReportReview === null,
  };
}
