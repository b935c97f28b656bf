import { and, eq, inArray } from 'drizzle-orm';
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
