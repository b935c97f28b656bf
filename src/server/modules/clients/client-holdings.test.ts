import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database';
import {
  extendStoragePaidUntil,
  givePrePaidVialsBack,
  grantStoragePlan,
  reservePrePaidVials,
  savePreferredAddress,
} from './client-holdings';
import { clients } from './schema';

/**
 * The clients module's own functions for what paid orders change on a client's record, called
 * directly on a fresh database: the other modules reach the record only through them.
 */

let database: TestDatabase;
let db: Database;
let serial = 0;
const now = new Date('2026-03-10T15:00:00Z');

async function newClient(values: Partial<typeof clients.$inferInsert> = {}): Promise<string> {
  serial += 1;
  const [row] = await db
    .insert(clients)
    .values({
      clientActId: `HOLD${serial}`,
      firstName: 'Ada',
      lastName: 'Moreno',
      dateOfBirth: '1980-05-17',
      email: `ada${serial}@example.com`,
      ...values,
    })
    .returning({ id: clients.id });
  return (row as { id: string }).id;
}

async function recordOf(clientId: string) {
  const [row] = await db.select().from(clients).where(eq(clients.id, clientId));
  return row as typeof clients.$inferSelect;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

describe('reservePrePaidVials', () => {
  it('gives the last pre-paid vial to one of two orders racing for it', async () => {
    const clientId = await newClient({ bioInsuranceVialsAvailable: 1, longevityVialsAvailable: 2 });
    const reserve = () =>
      db.transaction((tx) => reservePrePaidVials(tx, clientId, { bioInsurance: 1, longevity: 1 }));

    const outcomes = await Promise.all([reserve(), reserve()]);

    expect(outcomes.sort()).toEqual([false, true]);
    const record = await recordOf(clientId);
    expect([record.bioInsuranceVialsAvailable, record.longevityVialsAvailable]).toEqual([0, 1]);
  });

  it('refuses more vials of one kind than the client has, and takes none of the other kind', async () => {
    const clientId = await newClient({ bioInsuranceVialsAvailable: 3, longevityVialsAvailable: 1 });

    expect(await reservePrePaidVials(db, clientId, { bioInsurance: 1, longevity: 2 })).toBe(false);

    const record = await recordOf(clientId);
    expect([record.bioInsuranceVialsAvailable, record.longevityVialsAvailable]).toEqual([3, 1]);
  });

  it('gives reserved vials back', async () => {
    const clientId = await newClient({ bioInsuranceVialsAvailable: 2, longevityVialsAvailable: 0 });
    await reservePrePaidVials(db, clientId, { bioInsurance: 2, longevity: 0 });

    await givePrePaidVialsBack(db, clientId, { bioInsurance: 2, longevity: 0 });

    expect((await recordOf(clientId)).bioInsuranceVialsAvailable).toBe(2);
  });
});

describe('grantStoragePlan', () => {
  it.each([
    { paidUntil: null, years: 1, expected: '2027-03-10' },
    { paidUntil: '2026-12-31', years: 2, expected: '2028-12-31' },
    { paidUntil: '2025-01-15', years: 1, expected: '2027-03-10' },
    { paidUntil: '2026-03-10', years: 5, expected: '2031-03-10' },
  ])(
    'moves storage paid until $paidUntil on by $years years to $expected (from today when already past)',
    async ({ paidUntil, years, expected }) => {
      const clientId = await newClient({ annualStoragePaidUntil: paidUntil });

      const after = await grantStoragePlan(
        db,
        clientId,
        { storageYears: years, bioInsuranceVials: 0, longevityVials: 0 },
        '2026-03-10',
        now,
      );

      expect(after).toEqual({ paidUntil: expected });
    },
  );

  it('adds the plan vials and dates the bio-insurance purchase, leaving storage alone without storage years', async () => {
    const clientId = await newClient({
      annualStoragePaidUntil: '2026-12-31',
      bioInsuranceVialsAvailable: 1,
      longevityVialsAvailable: 1,
    });

    await grantStoragePlan(
      db,
      clientId,
      { storageYears: 0, bioInsuranceVials: 2, longevityVials: 3 },
      '2026-03-10',
      now,
    );

    const record = await recordOf(clientId);
    expect(record.annualStoragePaidUntil).toBe('2026-12-31');
    expect([record.bioInsuranceVialsAvailable, record.longevityVialsAvailable]).toEqual([3, 4]);
    expect(record.lastBioInsurancePurchasedDate).toBe('2026-03-10');
  });
});

describe('extendStoragePaidUntil', () => {
  it('moves the paid-until date on, never back', async () => {
    const clientId = await newClient({ annualStoragePaidUntil: '2027-06-30' });

    await extendStoragePaidUntil(db, clientId, '2027-01-31', now);
    expect((await recordOf(clientId)).annualStoragePaidUntil).toBe('2027-06-30');

    await extendStoragePaidUntil(db, clientId, '2028-06-30', now);
    expect((await recordOf(clientId)).annualStoragePaidUntil).toBe('2028-06-30');
  });

  it('sets a first paid-until date', async () => {
    const clientId = await newClient();

    await extendStoragePaidUntil(db, clientId, '2027-03-10', now);

    expect((await recordOf(clientId)).annualStoragePaidUntil).toBe('2027-03-10');
  });
});

describe('savePreferredAddress', () => {
  it('saves the address as preferred and keeps the clinic name when the order names none', async () => {
    const clientId = await newClient({ clinicName: 'Miami Regenerative Clinic' });
    const address = {
      contactFullName: 'Lena Ortiz',
      phone: '(305) 555-0142',
      street: '1200 Brickell Ave',
      city: 'Miami',
      state: 'FL',
      zip: '33131',
      country: 'United States',
      shippingEmail: 'lena@clinic.example',
    };

    await savePreferredAddress(db, clientId, { ...address, clinicName: '' }, now);

    const record = await recordOf(clientId);
    expect({
      contact: record.preferredAddressContactFullName,
      phone: record.preferredAddressPhone,
      street: record.preferredAddressStreet,
      city: record.preferredAddressCity,
      state: record.preferredAddressState,
      zip: record.preferredAddressZip,
      country: record.preferredAddressCountry,
      email: record.shippingClinicEmail,
      clinic: record.clinicName,
    }).toEqual({
      contact: 'Lena Ortiz',
      phone: '(305) 555-0142',
      street: '1200 Brickell Ave',
      city: 'Miami',
      state: 'FL',
      zip: '33131',
      country: 'United States',
      email: 'lena@clinic.example',
      clinic: 'Miami Regenerative Clinic',
    });

    await savePreferredAddress(db, clientId, { ...address, clinicName: 'Brickell Stem Cell Center' }, now);
    expect((await recordOf(clientId)).clinicName).toBe('Brickell Stem Cell Center');
  });
});
