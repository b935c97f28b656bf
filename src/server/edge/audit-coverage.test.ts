import { and, eq, gte } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, clients, payments } from '../db/schema';
import { storeDocument } from '../lib/document-store';
import { createNewbornAgreementLink } from '../modules/newborn-agreement/newborn-agreement-service';
import type { AuditTrail } from '../plugins/audit';
import { protectedScope } from '../plugins/scopes';
import type { SessionService } from '../plugins/sessions';
import { staffSession } from '../testing/staff-fixtures';
import { startTestApp, type TestApp } from '../testing/test-app';

/**
 * Every read of a client's personal data, payment display data or documents leaves an audit row,
 * whoever reads it. The walk below calls each audited read of the three roles; the boot check in
 * protectedScope makes every new route of an audited scope declare whether it is audited, so a read
 * cannot be added and forgotten here.
 */
let t: TestApp;
let johnId: string;
let johnDocument: string;
let johnReceipt: string;

interface Read {
  /** public: a page opened without an account (a signed link, the payment pages). */
  role: 'client' | 'physician' | 'staff' | 'public';
  method: 'GET' | 'POST';
  url: () => string;
  /** The route pattern the audit row names. */
  pattern: string;
  payload?: object;
  /**
   * The clients the answer is about by Client ID, besides every Client ID its body shows (a list
   * shows many; a client's own page may show none): the signed-in client by default.
   */
  about?: string[];
}

const LINK_SECRET = 'a-test-link-secret-of-at-least-32-characters';
let agreementToken: string;
/** Shipment dates from today, for four weeks (the route takes at most 366 days). */
const shipmentRange = () => {
  const from = t.clock.now().toISOString().slice(0, 10);
  const to = new Date(t.clock.now().getTime() + 28 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  return `from=${from}&to=${to}`;
};
const JOHN = ['ACT10002'];

const reads: Read[] = [
  { role: 'client', method: 'GET', url: () => '/api/pay/get_Client', pattern: '/api/pay/get_Client' },
  {
    role: 'client',
    method: 'GET',
    url: () => '/api/pay/get_ClientActivity',
    pattern: '/api/pay/get_ClientActivity',
  },
  {
    role: 'client',
    method: 'GET',
    url: () => '/api/pay/get_PaymentInfo',
    pattern: '/api/pay/get_PaymentInfo',
  },
  {
    role: 'client',
    method: 'GET',
    url: () => '/api/pay/get_FormDocuments',
    pattern: '/api/pay/get_FormDocuments',
  },
  {
    role: 'client',
    method: 'GET',
    url: () => `/api/pay/documents/${johnDocument}`,
    pattern: '/api/pay/documents/:id',
  },
  {
    role: 'client',
    method: 'GET',
    url: () => `/api/pay/receipts/${johnReceipt}`,
    pattern: '/api/pay/receipts/:id',
  },
  {
    role: 'client',
    method: 'GET',
    url: () => '/api/pay/get_CellRequests',
    pattern: '/api/pay/get_CellRequests',
  },
  {
    role: 'client',
    method: 'GET',
    url: () => '/api/pay/get_ReleaseReadiness',
    pattern: '/api/pay/get_ReleaseReadiness',
  },
  {
    role: 'client',
    method: 'GET',
    url: () => '/api/pay/get_StoragePlanOrders',
    pattern: '/api/pay/get_StoragePlanOrders',
  },
  {
    role: 'client',
    method: 'POST',
    url: () => '/api/pay/get_ClientVialsService',
    pattern: '/api/pay/get_ClientVialsService',
    payload: { NumberOfVials: 1 },
  },
  {
    role: 'client',
    method: 'GET',
    url: () => `/api/pay/get_ShipmentDates?${shipmentRange()}`,
    pattern: '/api/pay/get_ShipmentDates',
  },
  {
    role: 'physician',
    method: 'GET',
    url: () => '/api/pay/get_PhysicianClients',
    pattern: '/api/pay/get_PhysicianClients',
  },
  {
    role: 'physician',
    method: 'POST',
    url: () => '/api/pay/set_ActingClient',
    pattern: '/api/pay/set_ActingClient',
    payload: { clientId: 'ACT10002' },
    about: JOHN,
  },
  {
    role: 'physician',
    method: 'GET',
    url: () => '/api/pay/get_Client',
    pattern: '/api/pay/get_Client',
    about: JOHN,
  },
  {
    role: 'physician',
    method: 'GET',
    url: () => '/api/pay/get_PhysicianConsent',
    pattern: '/api/pay/get_PhysicianConsent',
    about: JOHN,
  },
  {
    role: 'physician',
    method: 'GET',
    url: () => `/api/pay/documents/${johnDocument}`,
    pattern: '/api/pay/documents/:id',
    about: JOHN,
  },
  {
    role: 'physician',
    method: 'POST',
    url: () => '/api/pay/set_verifyPhysicianClientData',
    pattern: '/api/pay/set_verifyPhysicianClientData',
    payload: { ClientInfo: 'client_id', ClientId: 'ACT10002', ClientLastname: 'Roe' },
    about: JOHN,
  },
  {
    role: 'physician',
    method: 'GET',
    url: () => `/api/pay/get_ShipmentDates?${shipmentRange()}&Client_id=ACT10002`,
    pattern: '/api/pay/get_ShipmentDates',
    about: JOHN,
  },
  {
    role: 'physician',
    method: 'GET',
    url: () => '/api/pay/get_ReleaseReadiness?Client_id=ACT10002',
    pattern: '/api/pay/get_ReleaseReadiness',
    about: JOHN,
  },
  { role: 'staff', method: 'GET', url: () => '/api/staff/clients?q=Roe', pattern: '/api/staff/clients' },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/clients?q=example.com',
    pattern: '/api/staff/clients',
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/client?id=ACT10002',
    pattern: '/api/staff/client',
    about: JOHN,
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => `/api/staff/documents/${johnDocument}`,
    pattern: '/api/staff/documents/:id',
    about: JOHN,
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/audit?clientId=ACT10002',
    pattern: '/api/staff/audit',
    about: JOHN,
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/audit_search?q=Roe',
    pattern: '/api/staff/audit_search',
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/audit_search?q=read',
    pattern: '/api/staff/audit_search',
  },
  // The work queues: each item's client.
  { role: 'staff', method: 'GET', url: () => '/api/staff/lab_reports', pattern: '/api/staff/lab_reports' },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/sample_checks',
    pattern: '/api/staff/sample_checks',
  },
  { role: 'staff', method: 'GET', url: () => '/api/staff/plan_checks', pattern: '/api/staff/plan_checks' },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/queues/payments-in-doubt',
    pattern: '/api/staff/queues/payments-in-doubt',
    about: ['ACT10001', 'ACT10002'],
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/queues/store-orders',
    pattern: '/api/staff/queues/store-orders',
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/queues/vial-requests',
    pattern: '/api/staff/queues/vial-requests',
  },
  // The public pages: opened with a signed link, or after confirming who the client is.
  {
    role: 'public',
    method: 'GET',
    url: () => `/api/pay/get_Client_Agreement_service?id=${encodeURIComponent(agreementToken)}`,
    pattern: '/api/pay/get_Client_Agreement_service',
    about: JOHN,
  },
  {
    role: 'public',
    method: 'POST',
    url: () => '/api/pay/set_verifyClientData',
    pattern: '/api/pay/set_verifyClientData',
    payload: {
      mode: 'contact',
      ClientFirstName: 'John',
      Clientlastname: 'Roe',
      ClientEmail: 'john.roe@example.com',
      ClientDob: '11/02/1968',
    },
    about: JOHN,
  },
];

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', LINK_SECRET });
  const [john] = await t.db.select().from(clients).where(eq(clients.clientActId, 'ACT10002'));
  johnId = john?.id as string;
  const [jane] = await t.db.select().from(clients).where(eq(clients.clientActId, 'ACT10001'));
  agreementToken = (
    await createNewbornAgreementLink(
      t.db,
      Buffer.from(LINK_SECRET, 'utf8'),
      johnId,
      {
        mainContact: 'John Roe',
        patientId: 'ACT10002',
        annualBankingFeeCents: 17_500,
        bioInsuranceFeeCents: 30_000,
        downPaymentCents: 25_000,
        initialProcessingFeeCents: 249_500,
        interestRateBasisPoints: 600,
        installments: 12,
        totalFinancedCents: 1_000_000,
      },
      t.clock.now(),
    )
  ).token;
  // Two payments in doubt, of Jane and John: the queue shows both clients.
  for (const [clientId, key] of [
    [jane?.id as string, 'audit-coverage-doubt-jane'],
    [johnId, 'audit-coverage-doubt-john'],
  ] as const) {
    await t.db.insert(payments).values({
      clientId,
      idempotencyKey: key,
      requestHash: 'audit-coverage',
      source: 'test',
      purpose: 'annual_storage',
      methodKind: 'card',
      amountCents: 35_000,
      feeCents: 1_050,
      totalCents: 36_050,
      status: 'error',
      createdAt: new Date(t.clock.now().getTime() - 60 * 60 * 1000),
    });
  }
  johnDocument = (
    await storeDocument(t.db, t.app.deps.documentsKey, {
      clientId: johnId,
      kind: 'signed_agreement',
      fileName: 'consent.pdf',
      contentType: 'application/pdf',
      content: Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n'),
      now: t.clock.now(),
    })
  ).id;
  expect(johnDocument).toBeDefined();
  const [receipt] = await t.db
    .insert(payments)
    .values({
      clientId: johnId,
      idempotencyKey: 'audit-coverage-receipt',
      requestHash: 'audit-coverage',
      source: 'test',
      purpose: 'annual_storage',
      methodKind: 'card',
      amountCents: 35_000,
      feeCents: 1_050,
      totalCents: 36_050,
      status: 'approved',
      methodBrand: 'Visa',
      methodLast4: '1111',
      gatewayTransactionId: 'T-AUDIT-1',
      createdAt: t.clock.now(),
      completedAt: t.clock.now(),
    })
    .returning({ id: payments.id });
  johnReceipt = receipt?.id as string;
});

afterAll(async () => {
  await t?.close();
});

describe('the audit trail covers every read of personal data', () => {
  it('leaves one row per client each read shows, for each route and each role that may read it', async () => {
    const cookies = {
      client: await t.signIn('ACT10002'),
      physician: await t.signInPhysician('PHY20001'),
      staff: await staffSession(t),
    };
    const wrong: string[] = [];
    for (const read of reads) {
      const route = `${read.method} ${read.pattern}`;
      const since = t.clock.now();
      const response = await t.app.inject({
        method: read.method,
        url: read.url(),
        ...(read.role === 'public' ? {} : { headers: { cookie: cookies[read.role] } }),
        ...(read.payload ? { payload: read.payload } : {}),
      });
      expect(response.statusCode, `${read.role} ${route}: ${response.body.slice(0, 200)}`).toBe(200);
      const rows = await t.db
        .select({ clientActId: clients.clientActId })
        .from(auditEvents)
        .leftJoin(clients, eq(clients.id, auditEvents.clientId))
        .where(
          and(eq(auditEvents.route, route), eq(auditEvents.actorRole, read.role), gte(auditEvents.at, since)),
        );
      // Every Client ID the answer shows, and the client it is about: one row each (a read that
      // shows no client, an empty queue, leaves one row naming none).
      const shown = new Set([
        ...(response.body.match(/\bACT\d+\b/g) ?? []),
        ...(read.about ?? (read.role === 'client' ? JOHN : [])),
      ]);
      const expected = shown.size > 0 ? [...shown].sort() : ['(no client)'];
      const named = rows.map((r) => r.clientActId ?? '(no client)').sort();
      if (JSON.stringify(named) !== JSON.stringify(expected)) {
        wrong.push(
          `${read.role} ${route}: rows name [${named.join(', ')}], the answer shows [${expected.join(', ')}]`,
        );
      }
      t.clock.advance(1_000);
    }
    expect(wrong).toEqual([]);
  });

  it('names each client of a list: the staff search, the physician’s clients, a work queue', async () => {
    const named = async (route: string, call: () => Promise<{ statusCode: number }>) => {
      const since = t.clock.now();
      expect((await call()).statusCode).toBe(200);
      const rows = await t.db
        .select({ clientActId: clients.clientActId })
        .from(auditEvents)
        .leftJoin(clients, eq(clients.id, auditEvents.clientId))
        .where(and(eq(auditEvents.route, route), gte(auditEvents.at, since)));
      t.clock.advance(1_000);
      return rows.map((r) => r.clientActId).sort();
    };
    const staff = await staffSession(t);
    expect(
      await named('GET /api/staff/queues/payments-in-doubt', () =>
        t.app.inject({
          method: 'GET',
          url: '/api/staff/queues/payments-in-doubt',
          headers: { cookie: staff },
        }),
      ),
    ).toEqual(['ACT10001', 'ACT10002']);
    expect(
      await named('GET /api/staff/clients', () =>
        t.app.inject({ method: 'GET', url: '/api/staff/clients?q=Doe', headers: { cookie: staff } }),
      ),
    ).toEqual(['ACT10001']);
    const physician = await t.signInPhysician('PHY20001');
    const listed = await named('GET /api/pay/get_PhysicianClients', () =>
      t.app.inject({ method: 'GET', url: '/api/pay/get_PhysicianClients', headers: { cookie: physician } }),
    );
    expect(listed.length).toBeGreaterThanOrEqual(2);
  });

  it('names the client read, for the client themselves and for the physician acting for them', async () => {
    const since = t.clock.now();
    const client = await t.signIn('ACT10002');
    await t.app.inject({ method: 'GET', url: '/api/pay/get_FormDocuments', headers: { cookie: client } });
    const rows = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.route, 'GET /api/pay/get_FormDocuments'), gte(auditEvents.at, since)));
    expect(rows.map((r) => r.clientId)).toEqual([johnId]);
  });
});

describe('a route of an audited scope must say whether it is audited', () => {
  const trail: AuditTrail = { record: async () => {} };
  const sessions = { require: async () => ({ role: 'client' }) } as unknown as SessionService;

  it('refuses to start with a route that declares nothing', async () => {
    const app = Fastify();
    const booting = (async () => {
      await app.register(
        protectedScope(sessions, ['client'], async (scope) => void scope.get('/forgotten', async () => 'x'), {
          audit: trail,
        }),
      );
      await app.ready();
    })();
    await expect(booting).rejects.toThrow(/GET \/forgotten: declare config.audit/);
  });

  it('starts when each route declares an action or null', async () => {
    const app = Fastify();
    await app.register(
      protectedScope(
        sessions,
        ['client'],
        async (scope) => {
          scope.get('/read', { config: { audit: 'read-client' } }, async () => 'x');
          scope.get('/nothing-personal', { config: { audit: null } }, async () => 'y');
        },
        { audit: trail },
      ),
    );
    await expect(app.ready()).resolves.toBeDefined();
    await app.close();
  });
});
