import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * Logs never hold SQL parameters, request bodies or personal data: a failed query's message holds
 * its parameters, and PostgreSQL's `detail` the failing row, so an error is logged by its request
 * id, route and code only.
 */

const lines: string[] = [];
let t: TestApp;
let jane: string;

const PERSONAL = {
  firstName: 'Janelle',
  lastName: 'Quintanilla',
  clientDob: '04/21/1977',
  email: 'janelle.q@example.com',
  phone: '3055550199',
  street: '77 Unlucky Lane',
  city: 'Homestead',
  state: 'FL',
  zip: '33030',
  country: 'United States',
  clinicName: 'Redland Clinic',
  preferredAddressContactFullName: 'Dr. Porfirio Llanes',
  shippingClinicEmail: 'porfirio@redland.example.com',
  preferredAddressPhone: '3055550188',
  preferredAddressStreet: '9 Krome Avenue',
  preferredAddressCity: 'Florida City',
  preferredAddressState: 'FL',
  preferredAddressZip: '33034',
  preferredAddressCountry: 'United States',
};

beforeAll(async () => {
  t = await startTestApp({}, { logStream: { write: (line: string) => void lines.push(line) } });
  jane = await t.signIn('ACT10001');
  // A rule the database enforces and the app does not know: saving this street fails the query.
  await t.ownerDb.execute(
    sql.raw(`alter table clients add constraint edge_refuse_street check (street <> '${PERSONAL.street}')`),
  );
});
afterAll(() => t.close());

describe('the log of a failed request', () => {
  it("holds the request id, the route and the database's error code, and none of the personal data the query carried", async () => {
    lines.length = 0;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/pay/update_Client',
      headers: { cookie: jane },
      payload: PERSONAL,
    });
    expect(response.statusCode).toBe(500);
    const { requestId } = response.json();
    expect(response.body).not.toContain(PERSONAL.street);

    const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request failed');
    expect(failure).toMatchObject({
      reqId: requestId,
      route: '/api/pay/update_Client',
      errorCode: '23514',
    });
    const log = lines.join('');
    for (const value of [
      PERSONAL.firstName,
      PERSONAL.lastName,
      PERSONAL.email,
      '1977-04-21',
      PERSONAL.clientDob,
      PERSONAL.street,
      PERSONAL.preferredAddressContactFullName,
      PERSONAL.preferredAddressStreet,
      'Failed query',
      'update "clients"',
    ]) {
      expect(log).not.toContain(value);
    }
  });

  it('reduces every logged error to its type and code, wherever it is logged', () => {
    lines.length = 0;
    const error = Object.assign(new Error('Failed query: update … params: Janelle,janelle.q@example.com'), {
      code: '23505',
      detail: 'Key (email)=(janelle.q@example.com) already exists.',
    });
    t.app.log.warn({ err: error }, 'notice not sent');
    const [entry] = lines.map((line) => JSON.parse(line));
    expect(entry.err).toMatchObject({ type: 'Error', errorCode: '23505' });
    expect(lines.join('')).not.toMatch(/Janelle|janelle\.q|Failed query|Key \(email\)/);
  });
});
