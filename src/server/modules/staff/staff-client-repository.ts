import { desc, eq, sql } from 'drizzle-orm';
import type { ClientInformationUpdate, ClientRecord } from '../../../domain/client';
import type { StaffClientRecord } from '../../../domain/staff-client';
import type { Database } from '../../db/client';
import { type AuditTrailFilter, readAuditTrail } from '../../lib/audit-trail';
import { listClientDocuments } from '../../lib/document-store';
import { clientActIdOf } from '../clients/client-directory';
import {
  findClientRecord,
  listClientActivity,
  lockClientContact,
  updateClientInformation,
} from '../clients/client-repository';
import { clientFormSubmissions } from '../forms/signed-forms';
import { releaseReadinessOf } from '../ordering/release-readiness';
import { findMethodsOnFile, type PaymentMethodRow } from '../payments/payment-methods';
import { physicianActIdOf, physicianOfClient } from '../physicians/physician-repository';
import { clientProfileChanges, staffAccounts } from './schema';

/** Everything the back office shows of one client; null when there is no such client. */
export async function staffClientRecord(
  db: Database,
  clientId: string,
  today: string,
): Promise<StaffClientRecord | null> {
  const client = await findClientRecord(db, clientId, today);
  if (!client) return null;
  const physician = await physicianOfClient(db, clientId);
  const forms = await clientFormSubmissions(db, clientId);
  const docs = await listClientDocuments(db, clientId, ['signed_agreement', 'lab_report']);
  const { card, ach } = await findMethodsOnFile(db, clientId);
  const methods = [card, ach].filter((m): m is PaymentMethodRow => m !== null);
  return {
    client,
    physician: physician
      ? { physicianACTId: physician.physicianActId, name: `${physician.firstName} ${physician.lastName}` }
      : null,
    forms: forms.map((f) => ({
      form: f.form,
      status: f.status,
      completedAt: f.completedAt?.toISOString() ?? null,
      pdfDocumentId: f.pdfDocumentId,
      labReportDocumentId: f.labReportDocumentId,
      submittedByPhysician: f.physicianId !== null,
    })),
    documents: docs.map((d) => ({ ...d, createdAt: d.createdAt.toISOString() })),
    paymentMethods: methods.map((m) => ({
      kind: m.kind,
      brand: m.brand,
      last4: m.last4,
      expiry:
        m.expiryMonth && m.expiryYear ? `${String(m.expiryMonth).padStart(2, '0')}/${m.expiryYear}` : null,
      holder:
        m.kind === 'card'
          ? [m.holderFirstName, m.holderLastName].filter(Boolean).join(' ') || null
          : m.nameOnAccount,
      routingNumber: m.routingNumber,
    })),
    activity: await listClientActivity(db, clientId),
    releaseReadiness: await releaseReadinessOf(db, { clientId, today }),
    profileChanges: await listProfileChanges(db, clientId),
  };
}

/** Staff corrections of the profile, newest first, naming the staff member by e-mail. */
async function listProfileChanges(db: Database, clientId: string) {
  const rows = await db
    .select({
      at: clientProfileChanges.at,
      staff: staffAccounts.email,
      field: clientProfileChanges.field,
      oldValue: clientProfileChanges.oldValue,
      newValue: clientProfileChanges.newValue,
    })
    .from(clientProfileChanges)
    .innerJoin(staffAccounts, eq(staffAccounts.id, clientProfileChanges.staffId))
    .where(eq(clientProfileChanges.clientId, clientId))
    .orderBy(desc(clientProfileChanges.at), clientProfileChanges.field)
    .limit(AUDIT_LIMIT);
  return rows.map((r) => ({ ...r, at: r.at.toISOString() }));
}

/**
 * A staff member's correction of a client's profile: the same fields and write as the client's
 * own save, and in the same transaction one history row per field that changed. Returns the
 * changed fields (none: nothing is written).
 */
export async function staffUpdateClient(
  db: Database,
  input: { clientId: string; staffId: string; info: ClientInformationUpdate; today: string; now: Date },
  /** Runs in the same transaction after the write (the notices of a changed e-mail or phone). */
  afterWrite?: (tx: Database, before: ClientRecord) => Promise<void>,
): Promise<string[] | null> {
  return db.transaction(async (tx) => {
    if (!(await lockClientContact(tx, input.clientId))) return null;
    const before = await findClientRecord(tx, input.clientId, input.today);
    if (!before) return null;
    // Only the blocks the save carried: a field not sent is not a change.
    const changes = (Object.keys(input.info) as Array<keyof ClientInformationUpdate>).flatMap((field) => {
      const newValue = input.info[field];
      const oldValue = String(before[field] ?? '');
      return newValue === undefined || newValue === oldValue ? [] : [{ field, oldValue, newValue }];
    });
    if (changes.length === 0) return [];
    await updateClientInformation(tx, input.clientId, input.info, input.now);
    await tx
      .insert(clientProfileChanges)
      .values(
        changes.map((c) => ({ ...c, clientId: input.clientId, staffId: input.staffId, at: input.now })),
      );
    await afterWrite?.(tx, before);
    return changes.map((c) => c.field);
  });
}

const AUDIT_LIMIT = 200;

/**
 * Audit rows, newest first: of one client, or (admins) matching a Client ID, actor or action.
 * Each with the client's internal id (not sent: the answer's schema has no such field), for the
 * audit row of the read itself. The actor is named by their owner: a client's or physician's ID,
 * a staff member's e-mail.
 */
export function listAuditEvents(db: Database, filter: AuditTrailFilter) {
  return readAuditTrail(
    db,
    filter,
    {
      actor: (role, id) => sql<string>`coalesce(
        case when ${role} = 'client' then ${clientActIdOf(id)} end,
        case when ${role} = 'physician' then ${physicianActIdOf(id)} end,
        (select s.email from ${staffAccounts} s where ${role} = 'staff' and s.id = ${id}),
        case when ${role} = 'public' then 'public page' end,
        ${id}::text)`,
      clientActId: clientActIdOf,
    },
    AUDIT_LIMIT,
  );
}

export async function listStaff(db: Database) {
  return db.select().from(staffAccounts).orderBy(staffAccounts.email);
}
