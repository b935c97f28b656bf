import { and, eq } from 'drizzle-orm';
import { isoDateOf } from '../../../domain/dates';
import { type ReleaseReadiness, releaseReadiness } from '../../../domain/release-readiness';
import { storageYearsCharges } from '../../../domain/storage-billing';
import type { Database } from '../../db/client';
import { notFound } from '../../lib/http-error';
import { findClientRow } from '../clients/client-directory';
import { screeningFacts } from '../forms/signed-forms';
import { sampleExtractedOn } from '../initial-processing/sample-rows';
import { findMethodsOnFile } from '../payments/payment-methods';
import { storageHoldingRelease } from '../payments/release-storage';
import { priceBookOn } from '../prices/price-book-repository';
import { vialRequests } from './schema';

/**
 * A client's release checklist (get_ReleaseReadiness, and the staff record): the facts read from
 * the modules that own them, the rules in the domain. With a request id, the checklist of that
 * request of this client (another client's request answers the same 404 as an unknown one).
 */
export async function releaseReadinessOf(
  db: Database,
  input: { clientId: string; today: string; requestId?: string | undefined },
): Promise<ReleaseReadiness> {
  const client = await findClientRow(db, input.clientId);
  if (!client) throw notFound();
  let request: typeof vialRequests.$inferSelect | undefined;
  if (input.requestId) {
    [request] = await db
      .select()
      .from(vialRequests)
      .where(and(eq(vialRequests.id, input.requestId), eq(vialRequests.clientId, input.clientId)))
      .limit(1);
    if (!request || request.status === 'pending') throw notFound();
  }
  const { card, ach } = await findMethodsOnFile(db, input.clientId);
  const storage = await storageHoldingRelease(db, input.clientId);
  const { book } = await priceBookOn(db, input.today);
  return releaseReadiness({
    today: input.today,
    consentSigned: client.clientConsentFormCompleted,
    screening: await screeningFacts(db, input.clientId, client.infectiousDiseaseFormCompleted),
    sampleExtractedOn: (await sampleExtractedOn(db, input.clientId)) ?? client.dateBankedIn,
    dateBankedIn: client.dateBankedIn,
    enrollmentDate: client.enrollmentDate,
    storage: {
      paidUntil: client.annualStoragePaidUntil,
      overdueYears: storage.overdueYears,
      charges: storageYearsCharges(book, storage.overdueYears),
      retryingOn: storage.retryingOn,
      methodOnFile: Boolean(card || ach),
    },
    request: request
      ? {
          approvedOn: request.approvedByPractitionerAt ? isoDateOf(request.approvedByPractitionerAt) : null,
          addressVerified: request.addressVerified,
          cancelled: request.status === 'cancelled',
        }
      : null,
  });
}
