import { eq } from 'drizzle-orm';
import { addDays, addYears } from '../../domain/dates';
import { SHIPPED_PRICE_BOOK } from '../../domain/price-book';
import { storeDocument } from '../lib/document-store';
import { sealText } from '../lib/sealed-text';
import { hashSecret } from '../lib/secrets';
import type { Database } from './client';
import {
  annualStorageFees,
  clientActivities,
  clients,
  paymentMethods,
  physicianClients,
  physicians,
  sandboxPaymentMethods,
  staffAccounts,
  systemSettings,
} from './schema';

export const DEMO_CLIENT_PASSWORD = 'DemoClient#2026';
export const DEMO_PHYSICIAN_PASSWORD = 'DemoPhysician#2026';
export const DEMO_STAFF_EMAIL = 'staff@example.com';
export const DEMO_STAFF_PASSWORD = 'DemoStaff#2026';
/** The demo admin's TOTP secret (base32), printed in the README: `npm run totp` shows its code. */
export const DEMO_STAFF_TOTP_SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD';

/**
 * The demo admin of the back office, already enrolled with the fixed secret above (sealed under
 * this server's documents key, so it is seeded beside the app rather than in the template
 * database). Adds the account when it is missing; returns whether it did.
 */
export async function seedDemoStaff(db: Database, documentsKey: Buffer): Promise<boolean> {
  const added = await db
    .insert(staffAccounts)
    .values({
      email: DEMO_STAFF_EMAIL,
      name: 'Demo Admin',
      passwordHash: await hashSecret(DEMO_STAFF_PASSWORD),
      level: 'admin',
      totpSecretSealed: sealText(documentsKey, DEMO_STAFF_TOTP_SECRET),
    })
    .onConflictDoNothing()
    .returning({ id: staffAccounts.id });
  return added.length > 0;
}

/**
 * The demo accounts listed in the README. Dates are relative to `today` so the story stays true
 * whenever the demo is started: Jane is paid up until next year, John is two years overdue.
 * Runs once per database; returns whether it seeded.
 */
export async function seedDemoData(db: Database, today: string): Promise<boolean> {
  const [done] = await db.select().from(systemSettings).where(eq(systemSettings.key, 'demo_seeded')).limit(1);
  if (done) return false;

  const clientPassword = await hashSecret(DEMO_CLIENT_PASSWORD);
  const physicianPassword = await hashSecret(DEMO_PHYSICIAN_PASSWORD);
  const thisYear = Number(today.slice(0, 4));

  await db.transaction(async (tx) => {
    const [jane] = await tx
      .insert(clients)
      .values({
        clientActId: 'ACT10001',
        passwordHash: clientPassword,
        firstName: 'Jane',
        lastName: 'Doe',
        dateOfBirth: '1975-03-14',
        email: 'jane.doe@example.com',
        phone: '3055550142',
        street: '1200 Brickell Avenue',
        city: 'Miami',
        state: 'FL',
        zip: '33131',
        country: 'United States',
        clinicName: 'Biscayne Regenerative Medicine',
        preferredAddressContactFullName: 'Dr. Maria Alvarez',
        shippingClinicEmail: 'shipping@biscayne-regen.example.com',
        preferredAddressPhone: '3055550100',
        preferredAddressStreet: '8950 SW 74th Court, Suite 1400',
        preferredAddressCity: 'Miami',
        preferredAddressState: 'FL',
        preferredAddressZip: '33156',
        preferredAddressCountry: 'United States',
        annualStoragePaidUntil: `${thisYear + 1}-06-15`,
        // A Longevity 250 (25 Longevity vials of 1 million cells: 2 requested vials, 5 left over)
        // and 4 Bio-Insurance vials.
        longevityVialsAvailable: 25,
        bioInsuranceVialsAvailable: 4,
        initialProcessingFormCompleted: true,
        clientConsentFormCompleted: false,
        infectiousDiseaseFormCompleted: false,
        dateBankedIn: `${thisYear - 3}-06-15`,
        lastBioInsurancePurchasedDate: `${thisYear - 1}-09-02`,
      })
      .returning({ id: clients.id });
    const [john] = await tx
      .insert(clients)
      .values({
        clientActId: 'ACT10002',
        passwordHash: clientPassword,
        firstName: 'John',
        lastName: 'Roe',
        dateOfBirth: '1968-11-02',
        email: 'john.roe@example.com',
        phone: '4075550199',
        street: '455 Park Avenue South',
        city: 'New York',
        state: 'NY',
        zip: '10016',
        country: 'United States',
        clinicName: 'Hudson Orthopedic Associates',
        preferredAddressContactFullName: 'Dr. Samuel Okafor',
        shippingClinicEmail: 'receiving@hudson-ortho.example.com',
        preferredAddressPhone: '2125550188',
        preferredAddressStreet: '160 East 56th Street, Floor 7',
        preferredAddressCity: 'New York',
        preferredAddressState: 'NY',
        preferredAddressZip: '10022',
        preferredAddressCountry: 'United States',
        // Paid until a date two years ago less a month: the two yearly fees since then are unpaid,
        // and paying them covers him until a month from now.
        annualStoragePaidUntil: addDays(addYears(today, -2), 30),
        // A Longevity 100: 10 Longevity vials of 1 million cells, which cover one requested vial.
        longevityVialsAvailable: 10,
        bioInsuranceVialsAvailable: 0,
        initialProcessingFormCompleted: true,
        clientConsentFormCompleted: true,
        // His screening is to do: his physician, Dr. Alvarez, submits it in the Physician Portal.
        infectiousDiseaseFormCompleted: false,
        physicianFormAgreement: true,
        dateBankedIn: addDays(addYears(today, -5), -30),
      })
      .returning({ id: clients.id });
    if (!jane || !john) throw new Error('demo clients were not created');

    // Two new clients with both forms to do: Ana has paid her initial processing, Sam has not yet.
    const newClient = {
      passwordHash: clientPassword,
      country: 'United States',
      annualStoragePaidUntil: addYears(today, 1),
      clientConsentFormCompleted: false,
      infectiousDiseaseFormCompleted: false,
    };
    const [ana, sam] = await tx
      .insert(clients)
      .values([
        {
          ...newClient,
          clientActId: 'ACT10003',
          firstName: 'Ana',
          lastName: 'Lima',
          dateOfBirth: '1982-07-09',
          email: 'ana.lima@example.com',
          phone: '3055550177',
          street: '2300 Ponce de Leon Boulevard',
          city: 'Coral Gables',
          state: 'FL',
          zip: '33134',
          initialProcessingFormCompleted: true,
          dateBankedIn: addDays(today, -20),
        },
        {
          ...newClient,
          clientActId: 'ACT10004',
          firstName: 'Sam',
          lastName: 'Patel',
          dateOfBirth: '1990-01-23',
          email: 'sam.patel@example.com',
          phone: '9545550133',
          street: '101 East Las Olas Boulevard',
          city: 'Fort Lauderdale',
          state: 'FL',
          zip: '33301',
          initialProcessingFormCompleted: false,
        },
      ])
      .returning({ id: clients.id });
    if (!ana || !sam) throw new Error('demo clients were not created');

    // John: two yearly fees fell due and were never paid.
    await tx.insert(annualStorageFees).values([
      {
        clientId: john.id,
        dueDate: addDays(addYears(today, -2), 30),
        amountCents: SHIPPED_PRICE_BOOK.annualMaintenanceFee,
        status: 'overdue',
      },
      {
        clientId: john.id,
        dueDate: addDays(addYears(today, -1), 30),
        amountCents: SHIPPED_PRICE_BOOK.annualMaintenanceFee,
        status: 'overdue',
      },
    ]);
    // Display data only: a Visa ending 1111 held by the gateway's sandbox, which knows it too.
    await tx.insert(sandboxPaymentMethods).values({
      paymentRef: 'sandbox-card-demo-act10002',
      customerRef: 'sandbox-customer-demo-act10002',
      kind: 'card',
      brand: 'Visa',
      last4: '1111',
      expiryMonth: 12,
      expiryYear: thisYear + 3,
      behavior: 'approve',
      createdAt: new Date(),
    });
    await tx.insert(paymentMethods).values({
      clientId: john.id,
      kind: 'card',
      brand: 'Visa',
      last4: '1111',
      expiryMonth: 12,
      expiryYear: thisYear + 3,
      holderFirstName: 'John',
      holderLastName: 'Roe',
      billingEmail: 'john.roe@example.com',
      billingZip: '10016',
      country: 'United States',
      gateway: 'sandbox',
      gatewayCustomerRef: 'sandbox-customer-demo-act10002',
      gatewayPaymentRef: 'sandbox-card-demo-act10002',
    });

    await tx.insert(clientActivities).values([
      {
        clientId: jane.id,
        type: 'Initial Processing Fee',
        closeDate: `${thisYear - 3}-06-20`,
        stageName: 'Closed Won',
        amountCents: 250_000,
      },
      {
        clientId: jane.id,
        type: 'Annual Storage Fee',
        closeDate: `${thisYear}-06-10`,
        purchasedPlanName: 'Annual Storage',
        stageName: 'Closed Won',
        amountCents: 35_000,
      },
      {
        clientId: jane.id,
        type: 'Bio-Insurance Fee',
        closeDate: `${thisYear - 1}-09-02`,
        doseAmount: 4,
        purchasedPlanName: 'Bio-Insurance 10 Vials',
        stageName: 'Closed Won',
        amountCents: 425_000,
      },
      {
        clientId: jane.id,
        type: 'Dose Retrieval Fee',
        closeDate: `${thisYear - 1}-02-11`,
        doseAmount: 2,
        stageName: 'Shipped',
        amountCents: 100_000,
        cellRequestApprovedByPractitioner: true,
      },
      {
        clientId: jane.id,
        type: 'Dose Retrieval Fee',
        closeDate: '2021-05-04',
        doseAmount: 1,
        stageName: 'Shipped',
        amountCents: 50_000,
        cellRequestApprovedByPractitioner: true,
      },
      {
        clientId: john.id,
        type: 'Initial Processing Fee',
        closeDate: addYears(today, -5),
        stageName: 'Closed Won',
        amountCents: 300_000,
      },
      {
        clientId: john.id,
        type: 'Dose Retrieval Fee',
        closeDate: '2022-05-18',
        doseAmount: 3,
        stageName: 'Cancelled',
        cellRequestApprovedByPractitioner: false,
      },
      {
        clientId: john.id,
        type: 'Dose Retrieval Fee',
        closeDate: '2023-08-29',
        doseAmount: 2,
        stageName: 'Shipped',
        amountCents: 100_000,
        cellRequestApprovedByPractitioner: true,
      },
      {
        clientId: john.id,
        type: 'Storage Plan Fee',
        closeDate: addYears(today, -3),
        purchasedPlanName: '5 Year Storage Plan',
        stageName: 'Closed Won',
      },
    ]);

    const [physician] = await tx
      .insert(physicians)
      .values({
        physicianActId: 'PHY20001',
        passwordHash: physicianPassword,
        firstName: 'Maria',
        lastName: 'Alvarez',
        email: 'maria.alvarez@example.com',
      })
      .returning({ id: physicians.id });
    if (!physician) throw new Error('demo physician was not created');
    await tx.insert(physicianClients).values([
      { physicianId: physician.id, clientId: jane.id },
      { physicianId: physician.id, clientId: john.id },
      { physicianId: physician.id, clientId: ana.id },
      { physicianId: physician.id, clientId: sam.id },
    ]);

    // A second physician with one client of their own: acting for another physician's client
    // answers as if it did not exist.
    const [lucia] = await tx
      .insert(clients)
      .values({
        clientActId: 'ACT10005',
        passwordHash: clientPassword,
        firstName: 'Lucia',
        lastName: 'Moreno',
        dateOfBirth: '1984-07-21',
        email: 'lucia.moreno@example.com',
        phone: '9545550177',
        street: '410 Las Olas Boulevard',
        city: 'Fort Lauderdale',
        state: 'FL',
        zip: '33301',
        country: 'United States',
        clinicName: 'Las Olas Orthopedics',
        initialProcessingFormCompleted: true,
      })
      .returning({ id: clients.id });
    const [secondPhysician] = await tx
      .insert(physicians)
      .values({
        physicianActId: 'PHY20002',
        passwordHash: physicianPassword,
        firstName: 'David',
        lastName: 'Chen',
        email: 'david.chen@example.com',
      })
      .returning({ id: physicians.id });
    if (!lucia || !secondPhysician) throw new Error('second demo physician was not created');
    await tx.insert(physicianClients).values({ physicianId: secondPhysician.id, clientId: lucia.id });

    // Omar, reached only by the e-mailed payment link: one yearly fee is overdue and no method is
    // on file. The public page shows his bill before he pays it.
    const [omar] = await tx
      .insert(clients)
      .values({
        clientActId: 'ACT10006',
        passwordHash: clientPassword,
        firstName: 'Omar',
        lastName: 'Haddad',
        dateOfBirth: '1979-04-02',
        email: 'omar.haddad@example.com',
        phone: '7865550144',
        street: '88 SW 7th Street',
        city: 'Miami',
        state: 'FL',
        zip: '33130',
        country: 'United States',
        initialProcessingFormCompleted: true,
        clientConsentFormCompleted: true,
        infectiousDiseaseFormCompleted: true,
        annualStoragePaidUntil: addDays(today, -20),
        dateBankedIn: addDays(addYears(today, -1), -20),
      })
      .returning({ id: clients.id });
    if (!omar) throw new Error('demo client ACT10006 was not created');
    await tx.insert(annualStorageFees).values({
      clientId: omar.id,
      dueDate: addDays(today, -20),
      amountCents: SHIPPED_PRICE_BOOK.annualMaintenanceFee,
      status: 'overdue',
    });
    await tx.insert(systemSettings).values({ key: 'demo_seeded', value: today });
  });
  return true;
}

/** A one-page PDF: the demo lab report the back office shows on John's record. */
const DEMO_LAB_REPORT = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n'),
);

/**
 * Demo documents, encrypted under this server's key (so beside the app, not in the template
 * database): a lab report on John's (ACT10002) record for the back office to download. Once.
 */
export async function seedDemoDocuments(db: Database, documentsKey: Buffer, now: Date): Promise<boolean> {
  const [john] = await db.select({ id: clients.id }).from(clients).where(eq(clients.clientActId, 'ACT10002'));
  const [done] = await db
    .select()
    .from(systemSettings)
    .where(eq(systemSettings.key, 'demo_documents_seeded'))
    .limit(1);
  if (!john || done) return false;
  await storeDocument(db, documentsKey, {
    clientId: john.id,
    kind: 'lab_report',
    fileName: 'John Roe lab report.pdf',
    contentType: 'application/pdf',
    content: DEMO_LAB_REPORT,
    now,
  });
  await db.insert(systemSettings).values({ key: 'demo_documents_seeded', value: now.toISOString() });
  return true;
}
