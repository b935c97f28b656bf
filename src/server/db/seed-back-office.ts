import { randomInt, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { todayFor } from '../../domain/client';
import { addDays, addYears } from '../../domain/dates';
import { SHIPPED_PRICE_BOOK } from '../../domain/price-book';
import { hashSecret } from '../lib/secrets';
import { chargeReference } from '../modules/payments/ledger';
import type { Database } from './client';
import {
  annualStorageFees,
  clientActivities,
  clients,
  outboxMessages,
  paymentMethods,
  payments,
  physicianClients,
  physicians,
  sandboxPaymentMethods,
  sandboxTransactions,
  systemSettings,
  vialRequests,
} from './schema';
import { DEMO_CLIENT_PASSWORD } from './seed';

/**
 * Demo work for the back office's vial requests queue (beside the app in demo mode, like the demo
 * documents): Grace Park (ACT10007) has a Visa ending 4444 on file and ordered one vial by ACT
 * VIP three days ago, covered by a pre-paid vial; the bank has to confirm its price (charged to
 * her card), ship it and mark it delivered. An earlier attempt of hers errored: a payment in
 * doubt to settle. No other demo story uses her. Once.
 */
export async function seedDemoVialRequest(db: Database, now: Date): Promise<boolean> {
  const [done] = await db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.key, 'demo_vial_request_seeded'))
    .limit(1);
  if (done) return false;
  const today = todayFor(now);
  const thisYear = Number(today.slice(0, 4));
  const requestedAt = new Date(now.getTime() - 3 * 24 * 60 * 60_000);
  await db.transaction(async (tx) => {
    const [grace] = await tx
      .insert(clients)
      .values({
        clientActId: 'ACT10007',
        passwordHash: await hashSecret(DEMO_CLIENT_PASSWORD),
        firstName: 'Grace',
        lastName: 'Park',
        dateOfBirth: '1971-08-23',
        email: 'grace.park@example.com',
        phone: '3055550177',
        street: '1450 Brickell Bay Drive',
        city: 'Miami',
        state: 'FL',
        zip: '33131',
        country: 'United States',
        annualStoragePaidUntil: addYears(today, 1),
        initialProcessingFormCompleted: true,
        clientConsentFormCompleted: true,
        infectiousDiseaseFormCompleted: true,
        dateBankedIn: addDays(addYears(today, -4), -10),
        bioInsuranceVialsAvailable: 2,
      })
      .onConflictDoNothing()
      .returning({ id: clients.id });
    if (!grace) return;
    await tx.insert(sandboxPaymentMethods).values({
      paymentRef: 'sandbox-card-demo-act10007',
      customerRef: 'sandbox-customer-demo-act10007',
      kind: 'card',
      brand: 'Visa',
      last4: '4444',
      expiryMonth: 10,
      expiryYear: thisYear + 3,
      behavior: 'approve',
      createdAt: now,
    });
    await tx.insert(paymentMethods).values({
      clientId: grace.id,
      kind: 'card',
      brand: 'Visa',
      last4: '4444',
      expiryMonth: 10,
      expiryYear: thisYear + 3,
      holderFirstName: 'Grace',
      holderLastName: 'Park',
      billingEmail: 'grace.park@example.com',
      billingZip: '33131',
      country: 'United States',
      gateway: 'sandbox',
      gatewayCustomerRef: 'sandbox-customer-demo-act10007',
      gatewayPaymentRef: 'sandbox-card-demo-act10007',
    });
    const requestId = randomUUID();
    const [activity] = await tx
      .insert(clientActivities)
      .values({
        clientId: grace.id,
        cellRequestId: requestId,
        type: 'Dose Retrieval Fee',
        doseAmount: 1,
        closeDate: todayFor(requestedAt),
        purchasedPlanName: 'Stem cell request: 1 vial by ACT VIP',
        stageName: 'Requested',
        cellRequestApprovedByPractitioner: false,
        amountCents: 0,
      })
      .returning({ id: clientActivities.id });
    await tx.insert(vialRequests).values({
      id: requestId,
      clientId: grace.id,
      operationId: randomUUID(),
      idempotencyKey: 'demo-vial-request-act10007',
      status: 'requested',
      vials: 1,
      bioInsuranceVialsUsed: 1,
      longevityVialsUsed: 0,
      longevityCoveredVials: 0,
      cpp: false,
      tissue: 'Adipose',
      infectiousDisease: 'not treated',
      clinicName: 'Coral Gables Sports Medicine',
      shippingMethod: 'ACT VIP',
      shipmentDate: addDays(today, 14),
      contactFirstName: 'Elena',
      contactLastName: 'Ruiz',
      shippingEmail: 'receiving@coralgables-sports.example.com',
      phone: '3055550166',
      street: '2601 Ponce de Leon Boulevard',
      city: 'Coral Gables',
      state: 'FL',
      zip: '33134',
      country: 'United States',
      addressVerified: true,
      vialsCents: 0,
      cppCents: 0,
      shippingCents: 0,
      processingFeeCents: 0,
      totalCents: 0,
      paymentMethod: 'Credit Card',
      paymentDescription: 'Visa ending in 4444 (on file)',
      shippingPriceToBeConfirmed: true,
      clientActivityId: activity?.id ?? null,
      requestedAt,
      createdAt: requestedAt,
    });
    // An earlier attempt whose charge errored before it reached the gateway: a payment in doubt
    // for the back office to settle (the gateway has no such charge: settled as failed).
    await tx.insert(payments).values({
      clientId: grace.id,
      idempotencyKey: 'demo-errored-payment-act10007',
      requestHash: 'demo',
      source: 'ACT Client Portal',
      purpose: 'vial_request',
      methodKind: 'card',
      methodBrand: 'Visa',
      methodLast4: '4444',
      amountCents: 50_000,
      feeCents: 1_500,
      totalCents: 51_500,
      status: 'error',
      message: 'The payment could not be processed. Please try again in a few minutes.',
      createdAt: new Date(requestedAt.getTime() - 60 * 60_000),
    });
    await tx.insert(systemSettings).values({ key: 'demo_vial_request_seeded', value: now.toISOString() });
  });
  return true;
}

/**
 * A demo client for the back office's plan checks and store orders journey: Nora Quinn
 * (ACT10008), storage paid for a year, a Visa ending 1881 on file. Her journey places a plan
 * order by check and a store order through the client API; no other demo story uses her. Once.
 */
export async function seedDemoPlanStoreClient(db: Database, now: Date): Promise<boolean> {
  const [done] = await db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.key, 'demo_plan_store_client_seeded'))
    .limit(1);
  if (done) return false;
  const today = todayFor(now);
  const thisYear = Number(today.slice(0, 4));
  await db.transaction(async (tx) => {
    const [nora] = await tx
      .insert(clients)
      .values({
        clientActId: 'ACT10008',
        passwordHash: await hashSecret(DEMO_CLIENT_PASSWORD),
        firstName: 'Nora',
        lastName: 'Quinn',
        dateOfBirth: '1983-02-14',
        email: 'nora.quinn@example.com',
        phone: '3055550191',
        street: '901 Brickell Key Boulevard',
        city: 'Miami',
        state: 'FL',
        zip: '33131',
        country: 'United States',
        annualStoragePaidUntil: addYears(today, 1),
        initialProcessingFormCompleted: true,
        clientConsentFormCompleted: true,
        infectiousDiseaseFormCompleted: true,
        dateBankedIn: addDays(addYears(today, -2), -30),
      })
      .onConflictDoNothing()
      .returning({ id: clients.id });
    if (!nora) return;
    await tx.insert(sandboxPaymentMethods).values({
      paymentRef: 'sandbox-card-demo-act10008',
      customerRef: 'sandbox-customer-demo-act10008',
      kind: 'card',
      brand: 'Visa',
      last4: '1881',
      expiryMonth: 7,
      expiryYear: thisYear + 3,
      behavior: 'approve',
      createdAt: now,
    });
    await tx.insert(paymentMethods).values({
      clientId: nora.id,
      kind: 'card',
      brand: 'Visa',
      last4: '1881',
      expiryMonth: 7,
      expiryYear: thisYear + 3,
      holderFirstName: 'Nora',
      holderLastName: 'Quinn',
      billingEmail: 'nora.quinn@example.com',
      billingZip: '33131',
      country: 'United States',
      gateway: 'sandbox',
      gatewayCustomerRef: 'sandbox-customer-demo-act10008',
      gatewayPaymentRef: 'sandbox-card-demo-act10008',
    });
    await tx
      .insert(systemSettings)
      .values({ key: 'demo_plan_store_client_seeded', value: now.toISOString() });
  });
  return true;
}

/** One demo client of the renewals story: storage paid until `paidUntilInDays` from the seed, a Visa on file. */
async function seedRenewalClient(
  tx: Parameters<Parameters<Database['transaction']>[0]>[0],
  now: Date,
  client: {
    clientActId: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    email: string;
    paidUntilInDays: number;
    card: { last4: string; behavior: string };
    prePaidBioInsuranceVials?: number;
    /** Dates of its own instead (paid until, banked in). */
    dates?: { paidUntil: string; bankedIn: string };
  },
): Promise<{ clientId: string; methodId: string; customerRef: string; paymentRef: string } | null> {
  const today = todayFor(now);
  const thisYear = Number(today.slice(0, 4));
  const paidUntil = client.dates?.paidUntil ?? addDays(today, client.paidUntilInDays);
  const [row] = await tx
    .insert(clients)
    .values({
      clientActId: client.clientActId,
      passwordHash: await hashSecret(DEMO_CLIENT_PASSWORD),
      firstName: client.firstName,
      lastName: client.lastName,
      dateOfBirth: client.dateOfBirth,
      email: client.email,
      phone: '3055550123',
      street: '1200 Brickell Avenue',
      city: 'Miami',
      state: 'FL',
      zip: '33131',
      country: 'United States',
      annualStoragePaidUntil: paidUntil,
      // Banked three years before the coming anniversary: the coming one is storage year 3.
      dateBankedIn: client.dates?.bankedIn ?? addYears(paidUntil, -3),
      initialProcessingFormCompleted: true,
      clientConsentFormCompleted: true,
      infectiousDiseaseFormCompleted: true,
      bioInsuranceVialsAvailable: client.prePaidBioInsuranceVials ?? 0,
    })
    .onConflictDoNothing()
    .returning({ id: clients.id });
  if (!row) return null;
  const ref = `sandbox-card-demo-${client.clientActId.toLowerCase()}`;
  const customerRef = `sandbox-customer-demo-${client.clientActId.toLowerCase()}`;
  const card = {
    kind: 'card' as const,
    brand: 'Visa',
    last4: client.card.last4,
    expiryMonth: 9,
    expiryYear: thisYear + 3,
  };
  await tx
    .insert(sandboxPaymentMethods)
    .values({ paymentRef: ref, customerRef, ...card, behavior: client.card.behavior, createdAt: now });
  const [method] = await tx
    .insert(paymentMethods)
    .values({
      clientId: row.id,
      ...card,
      holderFirstName: client.firstName,
      holderLastName: client.lastName,
      billingEmail: client.email,
      billingZip: '33131',
      country: 'United States',
      gateway: 'sandbox',
      gatewayCustomerRef: customerRef,
      gatewayPaymentRef: ref,
    })
    .returning({ id: paymentMethods.id });
  if (!method) throw new Error('the demo card was not saved');
  return { clientId: row.id, methodId: method.id, customerRef, paymentRef: ref };
}

/**
 * The demo clients of storage renewals (issue 21): Ivy Chen (ACT10009), storage paid until 20
 * days from the seed with a Visa ending 4242 that pays, and Ben Ortiz (ACT10010), paid until 25
 * days from the seed with the sandbox card ending 0341 whose charges are declined. "Run billing
 * as of…" on the Billing page shows their notices, Ivy's renewal and Ben's retries. And Leo Grant
 * (ACT10013), two years overdue with a Visa ending 1111 on file. Once.
 */
export async function seedDemoRenewalClients(db: Database, now: Date): Promise<boolean> {
  const [done] = await db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.key, 'demo_renewal_clients_seeded'))
    .limit(1);
  if (done) return false;
  await db.transaction(async (tx) => {
    await seedRenewalClient(tx, now, {
      clientActId: 'ACT10009',
      firstName: 'Ivy',
      lastName: 'Chen',
      dateOfBirth: '1986-05-12',
      email: 'ivy.chen@example.com',
      paidUntilInDays: 20,
      card: { last4: '4242', behavior: 'approve' },
    });
    await seedRenewalClient(tx, now, {
      clientActId: 'ACT10010',
      firstName: 'Ben',
      lastName: 'Ortiz',
      dateOfBirth: '1977-11-03',
      email: 'ben.ortiz@example.com',
      paidUntilInDays: 25,
      card: { last4: '0341', behavior: 'charge:generic_decline' },
    });
    // Leo Grant (ACT10013): two years overdue and a Visa on file, with John's dates, for the
    // Payment Information journeys (saving a card pays his overdue years); John's own overdue years
    // are paid with his first vial request.
    const today = todayFor(now);
    const paidUntil = addDays(addYears(today, -2), 30);
    const leo = await seedRenewalClient(tx, now, {
      clientActId: 'ACT10013',
      firstName: 'Leo',
      lastName: 'Grant',
      dateOfBirth: '1972-09-30',
      email: 'leo.grant@example.com',
      paidUntilInDays: 0,
      card: { last4: '1111', behavior: 'approve' },
      dates: { paidUntil, bankedIn: addDays(addYears(today, -5), -30) },
    });
    if (leo) {
      await tx.insert(annualStorageFees).values(
        [paidUntil, addDays(addYears(today, -1), 30)].map((dueDate) => ({
          clientId: leo.clientId,
          dueDate,
          amountCents: SHIPPED_PRICE_BOOK.annualMaintenanceFee,
          status: 'overdue' as const,
        })),
      );
    }
    await tx.insert(systemSettings).values({ key: 'demo_renewal_clients_seeded', value: now.toISOString() });
  });
  return true;
}

/**
 * Noah Patel (ACT10011): consent signed, a Visa ending 4242 on file and one pre-paid Bio-Insurance
 * vial, storage paid well ahead. He orders vials and cancels them (the cancellation journey and
 * the README's walk-through); no other journey changes him.
 */
export async function seedDemoCancellationClient(db: Database, now: Date): Promise<boolean> {
  const [done] = await db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.key, 'demo_cancellation_client_seeded'))
    .limit(1);
  if (done) return false;
  await db.transaction(async (tx) => {
    await seedRenewalClient(tx, now, {
      clientActId: 'ACT10011',
      firstName: 'Noah',
      lastName: 'Patel',
      dateOfBirth: '1983-02-17',
      email: 'noah.patel@example.com',
      paidUntilInDays: 200,
      card: { last4: '4242', behavior: 'approve' },
      prePaidBioInsuranceVials: 1,
    });
    await tx
      .insert(systemSettings)
      .values({ key: 'demo_cancellation_client_seeded', value: now.toISOString() });
  });
  return true;
}

/** A demo client of the refund stories: a Visa ending 4242 on file and a settled card payment. */
interface SettledPaymentClient {
  clientActId: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string;
}

/**
 * A card payment of $2,575.00 for initial sample processing ($2,500.00 and the 3% card fee) ten
 * days before the seed, settled at the sandbox gateway (a payment made during a walk-through would
 * not settle before the 4:00 PM Pacific batch, and an unsettled charge is only voided whole), so
 * that staff can refund part of it on the client's record (issue 22). Once per `settingKey`.
 */
async function seedSettledPaymentClient(
  db: Database,
  now: Date,
  client: SettledPaymentClient,
  settingKey: string,
): Promise<boolean> {
  const [done] = await db.select().from(systemSettings).where(eq(systemSettings.key, settingKey)).limit(1);
  if (done) return false;
  const paidAt = new Date(now.getTime() - 10 * 24 * 60 * 60_000);
  await db.transaction(async (tx) => {
    const seeded = await seedRenewalClient(tx, now, {
      ...client,
      paidUntilInDays: 300,
      card: { last4: '4242', behavior: 'approve' },
    });
    if (seeded) {
      const paymentId = randomUUID();
      const reference = chargeReference(paymentId);
      const transactionId = String(randomInt(100_000_000_000, 1_000_000_000_000));
      await tx.insert(sandboxTransactions).values({
        transactionId,
        reference,
        customerRef: seeded.customerRef,
        paymentRef: seeded.paymentRef,
        amountCents: 257_500,
        status: 'approved',
        createdAt: paidAt,
      });
      await tx.insert(payments).values({
        id: paymentId,
        clientId: seeded.clientId,
        idempotencyKey: `demo-refund-payment-${client.clientActId.toLowerCase()}`,
        requestHash: 'demo',
        source: 'ACT Client Portal',
        purpose: 'initial_processing',
        methodKind: 'card',
        paymentMethodId: seeded.methodId,
        amountCents: 250_000,
        feeCents: 7_500,
        totalCents: 257_500,
        status: 'approved',
        reference,
        chargeStartedAt: paidAt,
        gatewayCustomerRef: seeded.customerRef,
        methodBrand: 'Visa',
        methodLast4: '4242',
        gatewayTransactionId: transactionId,
        createdAt: paidAt,
        completedAt: paidAt,
      });
      await tx.insert(clientActivities).values({
        clientId: seeded.clientId,
        type: 'Initial Processing',
        closeDate: todayFor(paidAt),
        purchasedPlanName: 'Initial sample processing, adipose',
        stageName: 'Closed Won',
        paymentId,
        amountCents: 257_500,
      });
      // Its receipt e-mail went out when it was paid (every approved charge has one: the fault suite checks).
      await tx.insert(outboxMessages).values({
        recipient: client.email,
        subject: 'Payment receipt',
        textBody: `We received your payment of $2,575.00 for initial sample processing. Transaction ${transactionId}.`,
        dedupeKey: `payment:${paymentId}`,
        status: 'sent',
        sentAt: paidAt,
        createdAt: paidAt,
      });
    }
    await tx.insert(systemSettings).values({ key: settingKey, value: now.toISOString() });
  });
  return true;
}

/**
 * Elena Marsh (ACT10012): a settled card payment of $2,575.00 that staff refund part of on her
 * record (e2e/staff-refunds.spec.ts and the README's walk-through); no other journey changes her.
 */
export function seedDemoRefundClient(db: Database, now: Date): Promise<boolean> {
  return seedSettledPaymentClient(
    db,
    now,
    {
      clientActId: 'ACT10012',
      firstName: 'Elena',
      lastName: 'Marsh',
      dateOfBirth: '1979-09-30',
      email: 'elena.marsh@example.com',
    },
    'demo_refund_client_seeded',
  );
}

/**
 * Hannah Brooks (ACT10015): the same settled payment as Elena's, for the refund above the approval
 * limit that a second admin approves (e2e/staff-refund-approval.spec.ts); no other journey changes her.
 */
export function seedDemoRefundApprovalClient(db: Database, now: Date): Promise<boolean> {
  return seedSettledPaymentClient(
    db,
    now,
    {
      clientActId: 'ACT10015',
      firstName: 'Hannah',
      lastName: 'Brooks',
      dateOfBirth: '1976-03-08',
      email: 'hannah.brooks@example.com',
    },
    'demo_refund_approval_client_seeded',
  );
}

/**
 * Olivia Reyes (ACT10014): Dr. Alvarez's client, release-ready (consent signed, banked three years,
 * storage paid well ahead, a Visa ending 4242 on file). Dr. Alvarez requests cells for her and she
 * objects from the e-mailed link (e2e/physician-cell-request.spec.ts and the README's
 * walk-through); no other journey changes her. Once.
 */
export async function seedDemoObjectionClient(db: Database, now: Date): Promise<boolean> {
  const [done] = await db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.key, 'demo_objection_client_seeded'))
    .limit(1);
  if (done) return false;
  await db.transaction(async (tx) => {
    const seeded = await seedRenewalClient(tx, now, {
      clientActId: 'ACT10014',
      firstName: 'Olivia',
      lastName: 'Reyes',
      dateOfBirth: '1985-06-11',
      email: 'olivia.reyes@example.com',
      paidUntilInDays: 250,
      card: { last4: '4242', behavior: 'approve' },
    });
    const [physician] = await tx
      .select({ id: physicians.id })
      .from(physicians)
      .where(eq(physicians.physicianActId, 'PHY20001'))
      .limit(1);
    if (seeded && physician) {
      await tx.insert(physicianClients).values({ physicianId: physician.id, clientId: seeded.clientId });
    }
    await tx.insert(systemSettings).values({ key: 'demo_objection_client_seeded', value: now.toISOString() });
  });
  return true;
}
