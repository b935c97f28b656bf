import { and, eq, sql } from 'drizzle-orm';
import {
  initialProcessingMessages as m,
  type SendProcessDataRequest,
} from '../../../domain/initial-processing';
import type { Database } from '../../db/client';
import { HttpError } from '../../lib/http-error';
import type { Transaction } from '../../lib/run-once';
import {
  registerNewClient,
  removeUnprocessedClient,
  clientsWithEmailAndBirth as samePerson,
} from '../clients/client-accounts';
import { sampleSubmissions } from './schema';

/**
 * A registration of the same person that has not finished (its operation may have died): its
 * operation id, so the caller can settle it before deciding whether this one is a duplicate.
 */
export async function pendingRegistrationOf(
  db: Database,
  physicianId: string,
  body: Pick<SendProcessDataRequest, 'Email' | 'Dob'>,
): Promise<string | null> {
  const people = await samePerson(db, physicianId, body.Email, body.Dob);
  for (const person of people) {
    const [pending] = await db
      .select({ operationId: sampleSubmissions.operationId })
      .from(sampleSubmissions)
      .where(and(eq(sampleSubmissions.clientId, person.id), eq(sampleSubmissions.status, 'pending')))
      .limit(1);
    if (pending?.operationId) return pending.operationId;
  }
  return null;
}

/**
 * Holds the person (e-mail, whatever its case, and date of birth) for the rest of the
 * transaction: a second registration of them, by any physician and with any Idempotency-Key,
 * waits here until the first one's transaction ends, and its check then sees the client the first
 * one registered. The check and the insert after it are one step this way, on PostgreSQL's many
 * connections as on PGlite's one.
 */
async function holdPerson(tx: Transaction, body: Pick<SendProcessDataRequest, 'Email' | 'Dob'>) {
  // lower() as samePerson compares: the same addresses it finds are the same lock.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended('client-registration:' || lower(${body.Email}::text) || ':' || ${body.Dob}::text, 0))`,
  );
}

/**
 * A new sample is for a new client. The same person (e-mail and date of birth) already with this
 * physician is named by their Client ID; with another physician or on their own, the answer says
 * only that the bank knows them, without their Client ID or anything else of their record. The
 * person is held until the caller's transaction ends, so the client it registers after this check
 * is the only one.
 */
export async function refuseDuplicate(
  tx: Transaction,
  physicianId: string,
  body: Pick<SendProcessDataRequest, 'Email' | 'Dob'>,
) {
  await holdPerson(tx, body);
  const people = await samePerson(tx, physicianId, body.Email, body.Dob);
  const mine = people.find((p) => p.linkedTo);
  if (mine) {
    const [pending] = await tx
      .select({ id: sampleSubmissions.id })
      .from(sampleSubmissions)
      .where(and(eq(sampleSubmissions.clientId, mine.id), eq(sampleSubmissions.status, 'pending')))
      .limit(1);
    const message = pending ? m.inProgress : m.alreadyRegistered(mine.actId);
    throw new HttpError('ALREADY_COMPLETED', message, { Email: message });
  }
  if (people.length > 0) {
    throw new HttpError('ALREADY_COMPLETED', m.registeredElsewhere, { Email: m.registeredElsewhere });
  }
}

/** Registers the new client of a sample form under the next free Client ID, linked to the physician. */
export async function registerClient(
  tx: Transaction,
  physicianId: string,
  body: SendProcessDataRequest,
  now: Date,
): Promise<{ id: string; actId: string }> {
  return registerNewClient(
    tx,
    physicianId,
    {
      firstName: body.FirstName,
      lastName: body.LastName,
      dateOfBirth: body.Dob,
      email: body.Email,
      phone: body.PhoneNumber,
      street: body.Address,
      city: body.City,
      state: body.State,
      zip: body.zipcode,
      country: body.Country,
    },
    now,
  );
}

/**
 * Gives back a registration that did not complete: the client it created goes, with its link to
 * the physician, its pending sample and any declined ledger row (cascade). Only while the sample
 * is still pending, so a completed registration is never undone.
 */
export async function removeUnfinishedRegistration(tx: Transaction, sampleId: string, clientId: string) {
  const [pending] = await tx
    .select({ id: sampleSubmissions.id })
    .from(sampleSubmissions)
    .where(and(eq(sampleSubmissions.id, sampleId), eq(sampleSubmissions.status, 'pending')))
    .limit(1);
  if (!pending) return;
  await removeUnprocessedClient(tx, clientId);
}
