import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import { clients, physicianClients } from './schema';

/**
 * A client's account as the other modules use it: signing in and recovering (auth), setting the
 * password (auth, the welcome link) and registering a new client for a physician (initial
 * processing), through the clients module that owns the table.
 */

type Reader = Database | Transaction;

/** A client account found for signing in: who, their e-mail and their password's hash. */
export interface ClientSignIn {
  id: string;
  actId: string;
  lastName: string;
  email: string;
  passwordHash: string | null;
}

/** The account of a Client ID as typed, upper-cased; undefined when there is none. */
export async function findClientSignIn(db: Reader, upperActId: string): Promise<ClientSignIn | undefined> {
  const [row] = await db
    .select({
      id: clients.id,
      actId: clients.clientActId,
      lastName: clients.lastName,
      email: clients.email,
      passwordHash: clients.passwordHash,
    })
    .from(clients)
    .where(sql`upper(${clients.clientActId}) = ${upperActId}`)
    .limit(1);
  return row;
}

/** The account that password recovery's details name (e-mail, first name, date of birth), if any. */
export async function findClientByRecoveryDetails(
  db: Reader,
  details: { email: string; firstName: string; dateOfBirth: string },
) {
  const [row] = await db
    .select({
      id: clients.id,
      email: clients.email,
      actId: clients.clientActId,
      emailChangedAt: clients.emailChangedAt,
    })
    .from(clients)
    .where(
      and(
        sql`lower(${clients.email}) = lower(${details.email})`,
        sql`lower(${clients.firstName}) = lower(${details.firstName})`,
        eq(clients.dateOfBirth, details.dateOfBirth),
      ),
    )
    .limit(1);
  return row;
}

/** Sets the client's password; returns who that is, or null when there is no such client. */
export async function setClientPassword(
  db: Reader,
  clientId: string,
  passwordHash: string,
  now: Date,
): Promise<{ id: string; actId: string; lastName: string } | null> {
  const [row] = await db
    .update(clients)
    .set({ passwordHash, updatedAt: now })
    .where(eq(clients.id, clientId))
    .returning({ id: clients.id, actId: clients.clientActId, lastName: clients.lastName });
  return row ?? null;
}

/** Whether the client has never set a password (false too when there is no such client). */
export async function clientHasNoPassword(db: Reader, clientId: string): Promise<boolean> {
  const [row] = await db
    .select({ passwordHash: clients.passwordHash })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  return row !== undefined && row.passwordHash === null;
}

/** The clients with this e-mail address (whatever its case) and date of birth, and whether they are this physician's. */
export async function clientsWithEmailAndBirth(
  db: Reader,
  physicianId: string,
  email: string,
  dateOfBirth: string,
): Promise<{ id: string; actId: string; linkedTo: string | null }[]> {
  return db
    .select({
      id: clients.id,
      actId: clients.clientActId,
      linkedTo: physicianClients.physicianId,
    })
    .from(clients)
    .leftJoin(
      physicianClients,
      and(eq(physicianClients.clientId, clients.id), eq(physicianClients.physicianId, physicianId)),
    )
    .where(and(sql`lower(${clients.email}) = lower(${email})`, eq(clients.dateOfBirth, dateOfBirth)));
}

/** Client IDs the bank gives new clients: ACT followed by a 1 and four digits (ACT10001, ...). */
const NEW_CLIENT_ID = '^ACT1[0-9]{4}$';
const FIRST_NUMBER = 10_001;
/** Concurrent registrations that took the number we tried: try the next ones, this many times. */
const ALLOCATION_TRIES = 20;

/** What a physician enters for a new client. */
export interface NewClientDetails {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

/**
 * Registers the client under the next free Client ID (the highest ACT1xxxx number plus one) and
 * links them to the physician. The unique index on Client IDs is the guard: a number another
 * registration took meanwhile is skipped (the insert does nothing), and the next one is tried.
 */
export async function registerNewClient(
  tx: Transaction,
  physicianId: string,
  details: NewClientDetails,
  now: Date,
): Promise<{ id: string; actId: string }> {
  const [highest] = await tx
    .select({ number: sql<number | null>`max(substring(${clients.clientActId} from 4)::int)` })
    .from(clients)
    .where(sql`${clients.clientActId} ~ ${NEW_CLIENT_ID}`);
  let candidate = Math.max(FIRST_NUMBER, Number(highest?.number ?? 0) + 1);
  for (let tries = 0; tries < ALLOCATION_TRIES; tries++, candidate++) {
    const [row] = await tx
      .insert(clients)
      .values({
        clientActId: `ACT${candidate}`,
        passwordHash: null,
        ...details,
        initialProcessingFormCompleted: false,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: clients.id, actId: clients.clientActId });
    if (row) {
      await tx.insert(physicianClients).values({ physicianId, clientId: row.id, createdAt: now });
      return row;
    }
  }
  throw new HttpError(
    'IDEMPOTENCY_CONFLICT',
    'Many clients are being registered at this moment. Please try again.',
  );
}

/**
 * Removes a client whose initial processing was never paid, with everything that cascades from
 * the record (their link to the physician, their samples, ledger rows); a client whose initial
 * processing is done is never removed.
 */
export async function removeUnprocessedClient(tx: Transaction, clientId: string): Promise<void> {
  await tx
    .delete(clients)
    .where(and(eq(clients.id, clientId), eq(clients.initialProcessingFormCompleted, false)));
}
