import { and, count, eq, gte } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, clients, payments } from '../db/schema';
import { storeDocument } from '../lib/document-store';
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
  role: 'client' | 'physician' | 'staff';
  method: 'GET' | 'POST';
  url: () => string;
  /** The route pattern the audit row names. */
  pattern: string;
  payload?: object;
}

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
  },
  { role: 'physician', method: 'GET', url: () => '/api/pay/get_Client', pattern: '/api/pay/get_Client' },
  {
    role: 'physician',
    method: 'GET',
    url: () => '/api/pay/get_PhysicianConsent',
    pattern: '/api/pay/get_PhysicianConsent',
  },
  {
    role: 'physician',
    method: 'GET',
    url: () => `/api/pay/documents/${johnDocument}`,
    pattern: '/api/pay/documents/:id',
  },
  {
    role: 'physician',
    method: 'POST',
    url: () => '/api/pay/set_verifyPhysicianClientData',
    pattern: '/api/pay/set_verifyPhysicianClientData',
    payload: { ClientInfo: 'client_id', ClientId: 'ACT10002', ClientLastname: 'Roe' },
  },
  { role: 'staff', method: 'GET', url: () => '/api/staff/clients?q=Roe', pattern: '/api/staff/clients' },
  { role: 'staff', method: 'GET', url: () => '/api/staff/client?id=ACT10002', pattern: '/api/staff/client' },
  {
    role: 'staff',
    method: 'GET',
    url: () => `/api/staff/documents/${johnDocument}`,
    pattern: '/api/staff/documents/:id',
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/audit?clientId=ACT10002',
    pattern: '/api/staff/audit',
  },
  {
    role: 'staff',
    method: 'GET',
    url: () => '/api/staff/audit_search?q=Roe',
    pattern: '/api/staff/audit_search',
  },
];

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
  const [john] = await t.db.select().from(clients).where(eq(clients.clientActId, 'ACT10002'));
  johnId = john?.id as string;
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
  it('leaves one row per read, for each route and each role that may read it', async () => {
    const cookies = {
      client: await t.signIn('ACT10002'),
      physician: await t.signInPhysician('PHY20001'),
      staff: await staffSession(t),
    };
    const missing: string[] = [];
    for (const read of reads) {
      const route = `${read.method} ${read.pattern}`;
      const since = t.clock.now();
      const rowsOf = async () =>
        (
          await t.db
            .select({ n: count() })
            .from(auditEvents)
            .where(
              and(
                eq(auditEvents.route, route),
                eq(auditEvents.actorRole, read.role),
                gte(auditEvents.at, since),
              ),
            )
        )[0]?.n ?? 0;
      const before = await rowsOf();
      const response = await t.app.inject({
        method: read.method,
        url: read.url(),
        headers: { cookie: cookies[read.role] },
        ...(read.payload ? { payload: read.payload } : {}),
      });
      expect(response.statusCode, `${read.role} ${route}: ${response.body.slice(0, 200)}`).toBe(200);
      if ((await rowsOf()) !== before + 1) missing.push(`${read.role} ${route}`);
      t.clock.advance(1_000);
    }
    expect(missing).toEqual([]);
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
