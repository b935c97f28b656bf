import { type AnyColumn, and, asc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { calendarDateToIso } from '../../../domain/dates';
import type { ClientSummary } from '../../../domain/staff';
import type { Database } from '../../db/client';
import { likePattern } from '../../lib/like-pattern';
import type { Transaction } from '../../lib/run-once';
import { clients, physicianClients } from './schema';

/**
 * What the other modules read and change of a client, through the clients module that owns the
 * table: a client's contact, their full record, their physician's id, the flags a signed form
 * sets and the details a physician-variant consent saves.
 */

type Reader = Database | Transaction;

/** A client's record as stored. */
export type ClientRow = typeof clients.$inferSelect;

/** How the portal names, greets and reaches a client. */
export interface ClientContact {
  id: string;
  clientActId: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  annualStoragePaidUntil: string | null;
}

const contactColumns = {
  id: clients.id,
  clientActId: clients.clientActId,
  firstName: clients.firstName,
  lastName: clients.lastName,
  email: clients.email,
  phone: clients.phone,
  dateOfBirth: clients.dateOfBirth,
  annualStoragePaidUntil: clients.annualStoragePaidUntil,
};

/** The client's contact; null when there is no such client. */
export async function clientContact(db: Reader, clientId: string): Promise<ClientContact | null> {
  const [row] = await db.select(contactColumns).from(clients).where(eq(clients.id, clientId)).limit(1);
  return row ?? null;
}

/** The contacts of these clients, by id (a client that does not exist is absent). */
export async function clientContacts(
  db: Reader,
  clientIds: readonly string[],
): Promise<Map<string, ClientContact>> {
  const ids = [...new Set(clientIds)];
  if (ids.length === 0) return new Map();
  const rows = await db.select(contactColumns).from(clients).where(inArray(clients.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** "First Last", as lists and notices name a client. */
export function clientFullName(client: Pick<ClientContact, 'firstName' | 'lastName'>): string {
  return `${client.firstName} ${client.lastName}`;
}

/** The client's whole record (the signed forms print it); null when there is no such client. */
export async function findClientRow(db: Reader, clientId: string): Promise<ClientRow | null> {
  const [row] = await db.select().from(clients).where(eq(clients.id, clientId)).limit(1);
  return row ?? null;
}

/** A client's record id by their Client ID, whatever its case; null when unknown. */
export async function findClientIdByActId(db: Reader, clientActId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(sql`upper(${clients.clientActId}) = upper(${clientActId})`)
    .limit(1);
  return row?.id ?? null;
}

/** How a person names a client on the public pages: by Client ID and last name, or by full contact. */
export type ClientNaming =
  | { by: 'id'; clientActId: string; lastName: string }
  | { by: 'contact'; firstName: string; lastName: string; email: string; dateOfBirth: string };

/** The condition a naming puts on the clients table, matched without regard to case. */
export function clientNamingCondition(naming: ClientNaming) {
  return naming.by === 'id'
    ? and(
        sql`upper(${clients.clientActId}) = upper(${naming.clientActId})`,
        sql`lower(${clients.lastName}) = lower(${naming.lastName})`,
      )
    : and(
        sql`lower(${clients.firstName}) = lower(${naming.firstName})`,
        sql`lower(${clients.lastName}) = lower(${naming.lastName})`,
        sql`lower(${clients.email}) = lower(${naming.email})`,
        eq(clients.dateOfBirth, naming.dateOfBirth),
      );
}

/** The record id of the client a person names; null when none matches. */
export async function findClientIdByNaming(db: Reader, naming: ClientNaming): Promise<string | null> {
  const [row] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(clientNamingCondition(naming))
    .limit(1);
  return row?.id ?? null;
}

/** The client's physician of record: the first linked to them; null when none is. */
export async function linkedPhysicianId(db: Reader, clientId: string): Promise<string | null> {
  const [row] = await db
    .select({ physicianId: physicianClients.physicianId })
    .from(physicianClients)
    .where(eq(physicianClients.clientId, clientId))
    .orderBy(asc(physicianClients.createdAt), asc(physicianClients.physicianId))
    .limit(1);
  return row?.physicianId ?? null;
}

/** The flags of the client's record a completed form or a paid step sets. */
export type ClientCompletion =
  | 'initialProcessingFormCompleted'
  | 'clientConsentFormCompleted'
  | 'infectiousDiseaseFormCompleted';

/** Sets one of the client's completion flags, in the caller's transaction. */
export async function markClientCompleted(
  tx: Reader,
  clientId: string,
  completion: ClientCompletion,
  now: Date,
): Promise<void> {
  await tx
    .update(clients)
    .set({ [completion]: true, updatedAt: now })
    .where(eq(clients.id, clientId));
}

/** Clears one of the client's completion flags (a rejected lab report opens the screening again). */
export async function reopenClientCompletion(
  tx: Reader,
  clientId: string,
  completion: ClientCompletion,
  now: Date,
): Promise<void> {
  await tx
    .update(clients)
    .set({ [completion]: false, updatedAt: now })
    .where(eq(clients.id, clientId));
}

/** The details a physician enters for a client on the consent (never the e-mail or phone). */
export interface ConsentProfile {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  enrollmentDate: string;
}

/** Saves the details of a physician-variant consent on the client's record. */
export async function saveConsentProfile(
  tx: Reader,
  clientId: string,
  profile: ConsentProfile,
  now: Date,
): Promise<void> {
  await tx
    .update(clients)
    .set({ ...profile, updatedAt: now })
    .where(eq(clients.id, clientId));
}

/** The clients linked to the physician, by Client ID, as the physician's list shows them. */
export async function clientsOfPhysician(db: Reader, physicianId: string) {
  return db
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
}

const SEARCH_LIMIT = 50;

/** Clients whose Client ID, name or e-mail holds the text, or born on the date it names (the back office's search). */
export async function searchClients(db: Reader, q: string): Promise<ClientSummary[]> {
  const pattern = likePattern(q);
  const dob = calendarDateToIso(q);
  return db
    .select({
      id: clients.id,
      clientACTId: clients.clientActId,
      firstName: clients.firstName,
      lastName: clients.lastName,
      email: clients.email,
      dateOfBirth: clients.dateOfBirth,
    })
    .from(clients)
    .where(
      or(
        ilike(clients.clientActId, pattern),
        ilike(clients.email, pattern),
        sql`(${clients.firstName} || ' ' || ${clients.lastName}) ilike ${pattern}`,
        sql`(${clients.lastName} || ', ' || ${clients.firstName}) ilike ${pattern}`,
        ...(dob ? [eq(clients.dateOfBirth, dob)] : []),
      ),
    )
    .orderBy(clients.lastName, clients.firstName)
    .limit(SEARCH_LIMIT);
}

/** A client the billing run may bill: banked, with storage paid until a date. */
export interface ClientToBill extends ClientContact {
  dateBankedIn: string;
  annualStoragePaidUntil: string;
}

/**
 * The banked clients whose storage is paid until `paidUntilBy` or earlier (the billing run's
 * candidates for a notice), optionally only those of the Client IDs given.
 */
export async function clientsToBill(
  db: Reader,
  input: { paidUntilBy: string; clientActIds?: readonly string[] },
): Promise<ClientToBill[]> {
  const rows = await db
    .select({ ...contactColumns, dateBankedIn: clients.dateBankedIn })
    .from(clients)
    .where(
      and(
        sql`${clients.dateBankedIn} is not null`,
        sql`${clients.annualStoragePaidUntil} <= ${input.paidUntilBy}::date`,
        input.clientActIds
          ? inArray(
              sql`upper(${clients.clientActId})`,
              input.clientActIds.map((id) => id.toUpperCase()),
            )
          : undefined,
      ),
    );
  return rows.filter((r): r is ClientToBill => r.dateBankedIn !== null && r.annualStoragePaidUntil !== null);
}

/** The ids of the clients of these Client IDs (the billing run's test limit). */
export async function clientIdsOfActIds(db: Reader, clientActIds: readonly string[]): Promise<string[]> {
  if (clientActIds.length === 0) return [];
  const rows = await db
    .select({ id: clients.id })
    .from(clients)
    .where(
      inArray(
        sql`upper(${clients.clientActId})`,
        clientActIds.map((id) => id.toUpperCase()),
      ),
    );
  return rows.map((r) => r.id);
}

/** The Client ID of the client a column names, as SQL for another owner's query (null for none). */
export function clientActIdOf(clientId: AnyColumn): SQL<string | null> {
  return sql<
    string | null
  >`(select ${clients.clientActId} from ${clients} where ${clients.id} = ${clientId})`;
}
