import { and, asc, eq, inArray } from 'drizzle-orm';
import type { PhysicianClient } from '../../../domain/physician';
import type { Database } from '../../db/client';
import { clients, formSubmissions, physicianClients, physicians } from '../../db/schema';

export async function findPhysician(db: Database, physicianId: string) {
  const [row] = await db
    .select({
      id: physicians.id,
      physicianActId: physicians.physicianActId,
      firstName: physicians.firstName,
      lastName: physicians.lastName,
      email: physicians.email,
    })
    .from(physicians)
    .where(eq(physicians.id, physicianId))
    .limit(1);
  return row;
}

/** The clients linked to the physician, by Client ID, with their signed documents. */
export async function listPhysicianClients(db: Database, physicianId: string): Promise<PhysicianClient[]> {
  const rows = await db
    .select({
      id: clients.id,
      clientACTId: clients.clientActId,
      firstName: clients.firstName,
      lastName: clients.lastName,
      dateOfBirth: clients.dateOfBirth,
      initialProcessingPaid: clients.initialProcessingFormCompleted,
      consentSigned: clients.clientConsentFormCompleted,
      screeningDone: clients.infectiousDiseaseFormCompleted,
      storagePaidUntil: clients.annualStoragePaidUntil,
      dateBankedIn: clients.dateBankedIn,
    })
    .from(physicianClients)
    .innerJoin(clients, eq(clients.id, physicianClients.clientId))
    .where(eq(physicianClients.physicianId, physicianId))
    .orderBy(asc(clients.clientActId));
  if (rows.length === 0) return [];
  const signed = await db
    .select({
      clientId: formSubmissions.clientId,
      form: formSubmissions.form,
      documentId: formSubmissions.pdfDocumentId,
    })
    .from(formSubmissions)
    .where(
      and(
        inArray(
          formSubmissions.clientId,
          rows.map((r) => r.id),
        ),
        eq(formSubmissions.status, 'completed'),
      ),
    );
  return rows.map((row) => ({
    ...row,
    name: `${row.firstName} ${row.lastName}`,
    documents: signed.flatMap((s) =>
      s.clientId === row.id && s.documentId ? [{ id: s.documentId, form: s.form }] : [],
    ),
  }));
}
