import { type AnyColumn, and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PhysicianClient } from '../../../domain/physician';
import type { Database } from '../../db/client';
import type { Transaction } from '../../lib/run-once';
import { clientsOfPhysician, linkedPhysicianId } from '../clients/client-directory';
import { signedFormDocuments } from '../forms/signed-forms';
import { physicians } from './schema';

type Reader = Database | Transaction;

const physicianColumns = {
  id: physicians.id,
  physicianActId: physicians.physicianActId,
  firstName: physicians.firstName,
  lastName: physicians.lastName,
  email: physicians.email,
};

/** How the portal names and reaches a physician. */
export interface PhysicianContact {
  id: string;
  physicianActId: string;
  firstName: string;
  lastName: string;
  email: string;
}

export async function findPhysician(db: Reader, physicianId: string): Promise<PhysicianContact | undefined> {
  const [row] = await db
    .select(physicianColumns)
    .from(physicians)
    .where(eq(physicians.id, physicianId))
    .limit(1);
  return row;
}

/** These physicians, by id (one that does not exist is absent). */
export async function physicianContacts(
  db: Reader,
  physicianIds: readonly string[],
): Promise<Map<string, PhysicianContact>> {
  const ids = [...new Set(physicianIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select(physicianColumns).from(physicians).where(inArray(physicians.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** The physician linked to the client (the first, should there be several); undefined when none is. */
export async function physicianOfClient(db: Reader, clientId: string): Promise<PhysicianContact | undefined> {
  const physicianId = await linkedPhysicianId(db, clientId);
  return physicianId ? findPhysician(db, physicianId) : undefined;
}

/** A physician account found for signing in: who, their e-mail and their password's hash. */
export async function findPhysicianSignIn(db: Reader, upperActId: string) {
  const [row] = await db
    .select({
      id: physicians.id,
      actId: physicians.physicianActId,
      lastName: physicians.lastName,
      email: physicians.email,
      passwordHash: physicians.passwordHash,
    })
    .from(physicians)
    .where(sql`upper(${physicians.physicianActId}) = ${upperActId}`)
    .limit(1);
  return row;
}

/** The account that password recovery's details name (Physician ID and e-mail), if any. */
export async function findPhysicianByRecoveryDetails(
  db: Reader,
  details: { physicianId: string; email: string },
) {
  const [row] = await db
    .select({ id: physicians.id, email: physicians.email, actId: physicians.physicianActId })
    .from(physicians)
    .where(
      and(
        sql`upper(${physicians.physicianActId}) = upper(${details.physicianId})`,
        sql`lower(${physicians.email}) = lower(${details.email})`,
      ),
    )
    .limit(1);
  return row;
}

export async function setPhysicianPassword(db: Reader, physicianId: string, passwordHash: string) {
  await db.update(physicians).set({ passwordHash }).where(eq(physicians.id, physicianId));
}

/** The clients linked to the physician, by Client ID, with their signed documents. */
export async function listPhysicianClients(db: Database, physicianId: string): Promise<PhysicianClient[]> {
  const rows = await clientsOfPhysician(db, physicianId);
  if (rows.length === 0) return [];
  const signed = await signedFormDocuments(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    ...row,
    name: `${row.firstName} ${row.lastName}`,
    documents: signed.flatMap((s) =>
      s.clientId === row.id && s.documentId ? [{ id: s.documentId, form: s.form }] : [],
    ),
  }));
}

/** The Physician ID of the physician a column names, as SQL for another owner's query (null for none). */
export function physicianActIdOf(physicianId: AnyColumn): SQL<string | null> {
  return sql<
    string | null
  >`(select ${physicians.physicianActId} from ${physicians} where ${physicians.id} = ${physicianId})`;
}
