import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  type ClientInformationUpdate,
  type ClientRecord,
  clientInformationFieldOrder,
} from '../../../domain/client';
import type { ClientActivityRecord } from '../../../domain/client-activity';
import { isoToUsDate, usDateToIso } from '../../../domain/dates';
import type { ClientIdentification } from '../../../domain/infectious-disease';
import { centsToAmount } from '../../../domain/money';
import { maskedCardNumber } from '../../../domain/payment-info';
import type { Database } from '../../db/client';
import type { Transaction } from '../../lib/run-once';
import { paymentOutcomes } from '../payments/receipts';
import { clientActivities, clients, physicianClients } from './schema';

/** The columns of the clients row the record shows (never the password hash): the busiest read reads no more. */
type RecordColumns = Pick<
  typeof clients.$inferSelect,
  | 'annualStoragePaidUntil'
  | 'arbSubscribed'
  | 'bioInsuranceVialsAvailable'
  | 'city'
  | 'clientActId'
  | 'clientConsentFormCompleted'
  | 'clinicName'
  | 'country'
  | 'dateBankedIn'
  | 'dateOfBirth'
  | 'email'
  | 'firstName'
  | 'id'
  | 'infectiousDiseaseFormCompleted'
  | 'initialProcessingFormCompleted'
  | 'lastBioInsurancePurchasedDate'
  | 'lastName'
  | 'longevityVialsAvailable'
  | 'phone'
  | 'physicianFormAgreement'
  | 'preferredAddressCity'
  | 'preferredAddressContactFullName'
  | 'preferredAddressCountry'
  | 'preferredAddressPhone'
  | 'preferredAddressState'
  | 'preferredAddressStreet'
  | 'preferredAddressZip'
  | 'shippingClinicEmail'
  | 'state'
  | 'street'
  | 'zip'
>;

/**
 * The row of the database function `client_record` (drizzle/0044_client_record_function.sql):
 * those columns under the same names, the card on file (last 4 only) and the overdue sum in cents.
 */
type ClientRecordRow = RecordColumns & { cardLast4: string | null; overdueCents: number | string };

// Prepared once per database (on PostgreSQL a named statement on each connection).
const clientRecordStatements = new WeakMap<Database, ReturnType<typeof prepareClientRecord>>();

function prepareClientRecord(db: Database) {
  return db
    .select({ record: sql<ClientRecordRow>`r` })
    .from(sql`client_record(${sql.placeholder('clientId')}, ${sql.placeholder('today')}) r`)
    .prepare('find_client_record');
}

/**
 * The client record of get_Client in one round trip: the row, the card on file (last 4 only)
 * and the sum of annual storage fees due before today and still unpaid (due today is not yet overdue).
 * get_Client is the portal's busiest read: its statement is a function in the database, whose plan
 * the database keeps (on PGlite a statement sent from here was planned on every call).
 */
export async function findClientRecord(
  db: Database,
  clientId: string,
  today: string,
): Promise<ClientRecord | null> {
  let statement = clientRecordStatements.get(db);
  if (!statement) {
    statement = prepareClientRecord(db);
    clientRecordStatements.set(db, statement);
  }
  const [found] = await statement.execute({ clientId, today });
  if (!found) return null;
  const c = found.record;
  const overdue = Number(c.overdueCents);
  return {
    clientACTId: c.clientActId,
    clientRecordId: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    clientDob: isoToUsDate(c.dateOfBirth),
    email: c.email,
    phone: c.phone,
    street: c.street,
    city: c.city,
    state: c.state,
    zip: c.zip,
    country: c.country,
    clinicName: c.clinicName,
    preferredAddressContactFullName: c.preferredAddressContactFullName,
    shippingClinicEmail: c.shippingClinicEmail,
    preferredAddressPhone: c.preferredAddressPhone,
    preferredAddressStreet: c.preferredAddressStreet,
    preferredAddressCity: c.preferredAddressCity,
    preferredAddressState: c.preferredAddressState,
    preferredAddressZip: c.preferredAddressZip,
    preferredAddressCountry: c.preferredAddressCountry,
    creditCardNumber: c.cardLast4 ? maskedCardNumber(c.cardLast4) : null,
    annualStoragePaidUntil: c.annualStoragePaidUntil,
    totalAnnualOverdueAmount: centsToAmount(overdue),
    hasOverDuePayments: overdue > 0,
    longevityVialsAvailable: c.longevityVialsAvailable,
    freeBioInsuranceVialsAvailble: c.bioInsuranceVialsAvailable,
    initialProcessingFormCompleted: c.initialProcessingFormCompleted,
    infectiousDiseaseFormCompleted: c.infectiousDiseaseFormCompleted,
    clientConsentFormCompleted: c.clientConsentFormCompleted,
    arbSubscribed: c.arbSubscribed,
    physicianFormAgreement: c.physicianFormAgreement,
    dateBankedin: c.dateBankedIn,
    LastBioInsurancePurchasedDate: c.lastBioInsurancePurchasedDate,
  };
}

/**
 * Writes exactly the fields the Client Information form edits, for this one client: the blocks
 * the save carried (a block not sent is left as it is).
 */
export async function updateClientInformation(
  db: Database,
  clientId: string,
  info: ClientInformationUpdate,
  now: Date,
) {
  const { clientDob, ...rest } = info;
  let dateOfBirth: string | undefined;
  if (clientDob !== undefined) {
    const iso = usDateToIso(clientDob);
    if (!iso) throw new Error('clientDob was validated before reaching the repository');
    dateOfBirth = iso;
  }
  const set: Partial<typeof clients.$inferInsert> = { updatedAt: now };
  if (dateOfBirth !== undefined) set.dateOfBirth = dateOfBirth;
  for (const field of clientInformationFieldOrder) {
    if (field === 'clientDob') continue;
    const value = rest[field];
    if (value !== undefined) set[field] = value;
  }
  await db
    .update(clients)
    .set({
      ...set,
      // Recovery codes wait a day after the address changes (letter case alone is no change).
      ...(rest.email === undefined
        ? {}
        : {
            emailChangedAt: sql`case when lower(${clients.email}) <> lower(${rest.email})
              then ${now.toISOString()}::timestamptz else ${clients.emailChangedAt} end`,
          }),
    })
    .where(eq(clients.id, clientId));
}

/**
 * The client's sign-in and recovery channels and the names a notice uses, the row locked until the
 * caller's transaction ends, so two saves announce and judge one change after the other.
 */
export async function lockClientContact(tx: Database | Transaction, clientId: string) {
  const [row] = await tx
    .select({
      email: clients.email,
      phone: clients.phone,
      firstName: clients.firstName,
      clientActId: clients.clientActId,
    })
    .from(clients)
    .where(eq(clients.id, clientId))
    .for('update')
    .limit(1);
  return row ?? null;
}

export async function listClientActivity(db: Database, clientId: string): Promise<ClientActivityRecord[]> {
  const rows = await db
    .select({
      activity: clientActivities,
      client: { actId: clients.clientActId, first: clients.firstName, last: clients.lastName },
    })
    .from(clientActivities)
    .innerJoin(clients, eq(clients.id, clientActivities.clientId))
    .where(eq(clientActivities.clientId, clientId))
    .orderBy(desc(clientActivities.closeDate), asc(clientActivities.createdAt));
  const payments = await paymentOutcomes(
    db,
    rows.map(({ activity }) => activity.paymentId),
  );
  return rows.map(({ activity, client }) => ({
    Id: activity.id,
    ClientId: client.actId,
    ClientName: `${client.first} ${client.last}`,
    Dose_Amount: activity.doseAmount,
    CloseDate: activity.closeDate,
    Type: activity.type,
    Purchased_Plan_Name: activity.purchasedPlanName,
    StageName: activity.stageName,
    Cell_Request_Approved_By_Practitioner: activity.cellRequestApprovedByPractitioner,
    CellRequestId: activity.cellRequestId,
    ...activityAmount(activity, activity.paymentId ? payments.get(activity.paymentId) : undefined),
  }));
}

/**
 * An activity's amount (the ledger's total once its payment is approved) and its receipt: the
 * payment's, or the refund's for a refund (recorded once the refund went through).
 */
function activityAmount(
  activity: { amountCents: number | null; paymentId: string | null; refundId: string | null },
  payment: { status: string; totalCents: number } | undefined,
) {
  return {
    Amount:
      payment?.status === 'approved'
        ? centsToAmount(payment.totalCents).toFixed(2)
        : activity.amountCents === null
          ? null
          : centsToAmount(activity.amountCents).toFixed(2),
    ReceiptId: activity.refundId ?? (payment?.status === 'approved' ? activity.paymentId : null),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A client's record id from either its record id or its Client ID; null when unknown. */
export async function findClientIdByAnyId(db: Database, id: string): Promise<string | null> {
  const condition = UUID.test(id)
    ? eq(clients.id, id.toLowerCase())
    : sql`upper(${clients.clientActId}) = upper(${id})`;
  const [row] = await db.select({ id: clients.id }).from(clients).where(condition).limit(1);
  return row?.id ?? null;
}

export async function physicianActsFor(
  db: Database,
  physicianId: string,
  clientId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ clientId: physicianClients.clientId })
    .from(physicianClients)
    .where(and(eq(physicianClients.physicianId, physicianId), eq(physicianClients.clientId, clientId)))
    .limit(1);
  return row !== undefined;
}

/** What a vial release reads of a client: pre-paid vials and the dates its notice counts from. */
export interface ClientVialHoldings {
  bioInsuranceVials: number;
  longevityVials: number;
  dateBankedIn: string | null;
  lastBioInsurancePurchasedDate: string | null;
}

export async function findClientVialHoldings(
  db: Database,
  clientId: string,
): Promise<ClientVialHoldings | null> {
  const [row] = await db
    .select({
      bioInsuranceVials: clients.bioInsuranceVialsAvailable,
      longevityVials: clients.longevityVialsAvailable,
      dateBankedIn: clients.dateBankedIn,
      lastBioInsurancePurchasedDate: clients.lastBioInsurancePurchasedDate,
    })
    .from(clients)
    .where(eq(clients.id, clientId))
    .limit(1);
  return row ?? null;
}

/**
 * One of the physician's own clients, named by Client ID and last name or by full contact (first
 * and last name, e-mail, date of birth), matched without regard to case; null for another
 * physician's client and for one that does not exist alike.
 */
export async function findLinkedClientByIdentification(
  db: Database,
  physicianId: string,
  identification: ClientIdentification,
) {
  const byId = identification.ClientInfo === 'client_id';
  const dateOfBirth = byId ? null : usDateToIso(identification.ClientDob ?? '');
  if (!byId && !dateOfBirth) return null;
  const condition = byId
    ? and(
        sql`upper(${clients.clientActId}) = upper(${identification.ClientId ?? ''})`,
        sql`lower(${clients.lastName}) = lower(${identification.ClientLastname ?? ''})`,
      )
    : and(
        sql`lower(${clients.firstName}) = lower(${identification.ClientFirstName ?? ''})`,
        sql`lower(${clients.lastName}) = lower(${identification.Clientlastname ?? ''})`,
        sql`lower(${clients.email}) = lower(${identification.ClientEmail ?? ''})`,
        eq(clients.dateOfBirth, dateOfBirth ?? ''),
      );
  const [row] = await db
    .select({
      id: clients.id,
      clientActId: clients.clientActId,
      firstName: clients.firstName,
      lastName: clients.lastName,
      infectiousDiseaseFormCompleted: clients.infectiousDiseaseFormCompleted,
    })
    .from(physicianClients)
    .innerJoin(clients, eq(clients.id, physicianClients.clientId))
    .where(and(eq(physicianClients.physicianId, physicianId), condition))
    .limit(1);
  return row ?? null;
}
