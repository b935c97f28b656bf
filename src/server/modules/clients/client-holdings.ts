import { and, eq, gte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Transaction } from '../../lib/run-once';
import { clients } from './schema';

/**
 * What the paid orders change on a client's record, through the clients module that owns it: the
 * pre-paid vials an order reserves or gives back, the storage a plan or a fee pays for, and the
 * shipping address an order saves as preferred. Each runs in the caller's transaction.
 */

type Writer = Database | Transaction;

/** Pre-paid vials by kind. */
export interface PrePaidVials {
  bioInsurance: number;
  longevity: number;
}

/**
 * Takes the vials from the client's pre-paid ones, only if the client still has them all: of two
 * orders racing for the last vial, one reserves it and the other is told false.
 */
export async function reservePrePaidVials(
  tx: Writer,
  clientId: string,
  vials: PrePaidVials,
): Promise<boolean> {
  if (vials.bioInsurance === 0 && vials.longevity === 0) return true;
  const [reserved] = await tx
    .update(clients)
    .set({
      bioInsuranceVialsAvailable: sql`${clients.bioInsuranceVialsAvailable} - ${vials.bioInsurance}`,
      longevityVialsAvailable: sql`${clients.longevityVialsAvailable} - ${vials.longevity}`,
    })
    .where(
      and(
        eq(clients.id, clientId),
        gte(clients.bioInsuranceVialsAvailable, vials.bioInsurance),
        gte(clients.longevityVialsAvailable, vials.longevity),
      ),
    )
    .returning({ id: clients.id });
  return reserved !== undefined;
}

/** Gives reserved vials back to the client (an order that did not go through). */
export async function givePrePaidVialsBack(tx: Writer, clientId: string, vials: PrePaidVials): Promise<void> {
  await tx
    .update(clients)
    .set({
      bioInsuranceVialsAvailable: sql`${clients.bioInsuranceVialsAvailable} + ${vials.bioInsurance}`,
      longevityVialsAvailable: sql`${clients.longevityVialsAvailable} + ${vials.longevity}`,
    })
    .where(eq(clients.id, clientId));
}

/** A shipping address an order saves as the client's preferred one. */
export interface PreferredAddress {
  contactFullName: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  shippingEmail: string;
  /** Kept as it is when empty. */
  clinicName?: string;
}

/** An order's shipping address (its contact's names apart) as the preferred address it saves. */
export function preferredAddressFrom(order: {
  contactFirstName: string;
  contactLastName: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  shippingEmail: string;
  clinicName?: string | null;
}): PreferredAddress {
  const { contactFirstName, contactLastName, phone, street, city, state, zip, country, shippingEmail } =
    order;
  const clinicName = order.clinicName ?? undefined;
  return {
    contactFullName: `${contactFirstName} ${contactLastName}`,
    ...{ phone, street, city, state, zip, country, shippingEmail },
    ...(clinicName ? { clinicName } : {}),
  };
}

export async function savePreferredAddress(
  tx: Writer,
  clientId: string,
  address: PreferredAddress,
  now: Date,
): Promise<void> {
  await tx
    .update(clients)
    .set({
      preferredAddressContactFullName: address.contactFullName,
      preferredAddressPhone: address.phone,
      preferredAddressStreet: address.street,
      preferredAddressCity: address.city,
      preferredAddressState: address.state,
      preferredAddressZip: address.zip,
      preferredAddressCountry: address.country,
      shippingClinicEmail: address.shippingEmail,
      ...(address.clinicName ? { clinicName: address.clinicName } : {}),
      updatedAt: now,
    })
    .where(eq(clients.id, clientId));
}

/** What a Banking and Storage Plans order adds to the client's record. */
export interface StoragePlanGrant {
  storageYears: number;
  bioInsuranceVials: number;
  longevityVials: number;
}

/**
 * Applies a plan in one statement, so a concurrent order of the same client extends from this
 * one's result: the paid-until date moves on by the plan's years from today or from the date
 * already paid, whichever is later; the vials are added. Returns the new paid-until date.
 */
export async function grantStoragePlan(
  tx: Writer,
  clientId: string,
  plan: StoragePlanGrant,
  today: string,
  now: Date,
): Promise<{ paidUntil: string | null } | null> {
  const [after] = await tx
    .update(clients)
    .set({
      ...(plan.storageYears > 0
        ? {
            annualStoragePaidUntil: sql`(greatest(coalesce(${clients.annualStoragePaidUntil}, ${today}::date), ${today}::date) + make_interval(years => ${plan.storageYears}))::date`,
          }
        : {}),
      bioInsuranceVialsAvailable: sql`${clients.bioInsuranceVialsAvailable} + ${plan.bioInsuranceVials}`,
      longevityVialsAvailable: sql`${clients.longevityVialsAvailable} + ${plan.longevityVials}`,
      ...(plan.bioInsuranceVials > 0 ? { lastBioInsurancePurchasedDate: today } : {}),
      updatedAt: now,
    })
    .where(eq(clients.id, clientId))
    .returning({ paidUntil: clients.annualStoragePaidUntil });
  return after ?? null;
}

/** Moves the client's storage paid-until date on to `paidUntil`, never back. */
export async function extendStoragePaidUntil(
  tx: Writer,
  clientId: string,
  paidUntil: string,
  now: Date,
): Promise<void> {
  await tx
    .update(clients)
    .set({ annualStoragePaidUntil: paidUntil, updatedAt: now })
    .where(
      and(
        eq(clients.id, clientId),
        sql`(${clients.annualStoragePaidUntil} is null or ${clients.annualStoragePaidUntil} < ${paidUntil}::date)`,
      ),
    );
}

/** As `extendStoragePaidUntil`, for many clients in one statement (a billing run's renewals). */
export async function extendStoragePaidUntilMany(
  tx: Writer,
  extensions: readonly { clientId: string; paidUntil: string }[],
  now: Date,
): Promise<void> {
  if (extensions.length === 0) return;
  const wanted = sql.join(
    extensions.map((e) => sql`(${e.clientId}::uuid, ${e.paidUntil}::date)`),
    sql`, `,
  );
  await tx.execute(sql`
    update ${clients} set annual_storage_paid_until = v.paid_until, updated_at = ${now.toISOString()}::timestamptz
    from (values ${wanted}) as v(id, paid_until)
    where ${clients.id} = v.id
      and (${clients.annualStoragePaidUntil} is null or ${clients.annualStoragePaidUntil} < v.paid_until)`);
}

/**
 * The client's tissue arrived: the banked date (the Enrollment Date for billing) is set, and
 * storage is paid until its first anniversary, never moved back.
 */
export async function recordBankedDate(
  tx: Writer,
  clientId: string,
  input: { bankedDate: string; paidUntil: string },
  now: Date,
): Promise<void> {
  await tx
    .update(clients)
    .set({ dateBankedIn: input.bankedDate, updatedAt: now })
    .where(eq(clients.id, clientId));
  await extendStoragePaidUntil(tx, clientId, input.paidUntil, now);
}

/** What a plan gave the client that they hold now: the paid-until date and the unused vials. */
export interface StorageHoldings {
  paidUntil: string | null;
  bioInsurance: number;
  longevity: number;
}

/**
 * The client's paid-until date and unused vials, the row locked when in a transaction that takes
 * something back (a vial request reserving vials at once waits for it, and sees what is left).
 */
export async function storageHoldings(
  db: Writer,
  clientId: string,
  options: { lock: boolean },
): Promise<StorageHoldings | null> {
  const query = db
    .select({
      paidUntil: clients.annualStoragePaidUntil,
      bioInsurance: clients.bioInsuranceVialsAvailable,
      longevity: clients.longevityVialsAvailable,
    })
    .from(clients)
    .where(eq(clients.id, clientId));
  const [row] = options.lock ? await query.for('update').limit(1) : await query.limit(1);
  return row ?? null;
}

/**
 * Takes back the unused part of a plan, under the lock of storageHoldings: the paid-until date
 * set to the one left once its years are taken back, the vials taken off what the client holds.
 */
export async function takeBackStoragePlan(
  tx: Transaction,
  clientId: string,
  takeBack: { paidUntil: string | null; bioInsuranceVials: number; longevityVials: number },
  now: Date,
): Promise<void> {
  await tx
    .update(clients)
    .set({
      annualStoragePaidUntil: takeBack.paidUntil,
      bioInsuranceVialsAvailable: sql`${clients.bioInsuranceVialsAvailable} - ${takeBack.bioInsuranceVials}`,
      longevityVialsAvailable: sql`${clients.longevityVialsAvailable} - ${takeBack.longevityVials}`,
      updatedAt: now,
    })
    .where(eq(clients.id, clientId));
}
