import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isConnectionLost } from '../lib/failures';
import { tokenizeCard } from '../testing/sandbox-tokens';
import { MANY_PAYMENT_ATTEMPTS, startTestApp, type TestApp } from '../testing/test-app';
import { testDatabaseKind, testOwnerUrl } from '../testing/test-database';

/**
 * Lost connections: a connection error fails the request with 503 and a clear message, never the
 * process; the pool recovers by itself.
 */

describe('which errors are a lost connection (503, try again)', () => {
  const withCause = (cause: unknown) =>
    Object.assign(new Error('Failed query: select 1\nparams: '), { cause });
  it.each([
    [
      'the server terminating the backend (57P01)',
      withCause({ code: '57P01', message: 'terminating connection' }),
      true,
    ],
    ['the server shutting down (57P02)', { code: '57P02' }, true],
    ['too many connections (53300)', { code: '53300' }, true],
    ['a connection exception of class 08', { code: '08006' }, true],
    ['a reset socket', withCause(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })), true],
    ['a refused connection', { code: 'ECONNREFUSED' }, true],
    ['a connection ended mid-query', withCause(new Error('Connection terminated unexpectedly')), true],
    [
      'a client that failed before',
      new Error('Client has encountered a connection error and is not queryable'),
      true,
    ],
    ['a check violation (23514)', withCause({ code: '23514', message: 'violates check constraint' }), false],
    ['a unique violation (23505)', { code: '23505' }, false],
    [
      'a query whose text mentions a terminated connection',
      new Error('Failed query: Connection terminated'),
      false,
    ],
    ['a plain error', new Error('boom'), false],
  ])('%s: %s', (_, error, lost) => {
    expect(isConnectionLost(error)).toBe(lost);
  });
});

// Only PostgreSQL has connections to lose; PGlite runs inside the process.
if (testDatabaseKind() === 'postgres') {
  describe('database connections terminated while requests are in flight (PostgreSQL)', () => {
    let t: TestApp;
    let jane: string;
    let admin: pg.Client;
    let databaseName: string;
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);

    beforeAll(async () => {
      t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000', ...MANY_PAYMENT_ATTEMPTS });
      jane = await t.signIn('ACT10001');
      const result = await t.db.execute<{ name: string }>(sql`select current_database() as name`);
      databaseName = (result as unknown as { rows: Array<{ name: string }> }).rows[0]?.name as string;
      admin = new pg.Client({ connectionString: testOwnerUrl() });
      await admin.connect();
      process.on('uncaughtException', onUncaught);
    });
    afterAll(async () => {
      process.off('uncaughtException', onUncaught);
      await admin.end();
      // Closing waits for every client the pool lent; none is kept after a lost connection
      // (src/server/db/pool-recovery.test.ts).
      await t.close();
    });

    const terminateAppConnections = () =>
      admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [databaseName],
      );

    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    function inFlight(round: number, tokens: Array<{ descriptor: string; value: string }>) {
      const requests: Array<Promise<LightMyRequestResponse>> = [];
      for (let i = 0; i < 5; i++) {
        requests.push(t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie: jane } }));
        requests.push(
          t.app.inject({ method: 'GET', url: '/api/pay/get_ClientActivity', headers: { cookie: jane } }),
        );
      }
      // Saving a card writes the method and its display data in one transaction.
      tokens.forEach((token, i) => {
        requests.push(
          t.app.inject({
            method: 'POST',
            url: '/api/pay/set_PaymentInfo',
            headers: { cookie: jane, 'idempotency-key': `lost-connection-${round}-${i}-${Date.now()}` },
            payload: {
              Payment_Type: 'CC',
              token,
              Credit_Card_Type: 'Visa',
              Month_of_Expiry: '12',
              Year_of_Expiry: String(t.clock.now().getUTCFullYear() + 3),
              Credit_Card_Holder_First_Name: 'Jane',
              Credit_Card_Holder_Last_Name: 'Doe',
              Credit_Card_Biling_Email_Address: 'jane.doe@example.com',
              Country: 'United States',
              Credit_Card_Billing_Street: '1200 Brickell Avenue',
              Credit_Card_Billing_City: 'Miami',
              Credit_Card_Billing_State: 'FL',
              Credit_Card_Billing_Zip_Code: '33131',
            },
          }),
        );
      });
      return requests;
    }

    it('keeps the process alive when a transaction loses its connection between two queries', async () => {
      // The connection is checked out and idle (the work between two statements) when it is cut:
      // only the client's own error listener stands between that and an unhandled 'error' event.
      const transaction = t.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await terminateAppConnections();
        await sleep(100);
        await tx.execute(sql`select 1`);
      });
      const failure = await transaction.then(
        () => null,
        (error: unknown) => error,
      );
      expect(isConnectionLost(failure)).toBe(true);
      await sleep(50);
      const after = await t.app.inject({
        method: 'GET',
        url: '/api/pay/get_Client',
        headers: { cookie: jane },
      });
      expect(after.statusCode, after.body).toBe(200);
      expect(uncaught).toEqual([]);
    });

    it('answers 200 or 503 with retry-after, never a 500 or a crash, and serves again right after', async () => {
      const statuses = new Map<number, number>();
      for (let round = 0; round < 12; round++) {
        const tokens = [];
        for (let i = 0; i < 4; i++) tokens.push(await tokenizeCard(t, '4242424242424242'));
        const requests = inFlight(round, tokens);
        await sleep(2 + ((round * 7) % 25));
        await terminateAppConnections();
        const answers = await Promise.all(requests);
        for (const answer of answers) {
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
          expect([200, 503], answer.body).toContain(answer.statusCode);
          if (answer.statusCode === 503) {
            expect(answer.json()).toMatchObject({
              error: 'The service is briefly unavailable. Please try again in a moment.',
              code: 'SERVICE_UNAVAILABLE',
            });
            expect(answer.headers['retry-after']).toBeDefined();
          }
        }
        // The pool drops the dead connections and opens new ones: the next request is served.
        await sleep(50);
        const after = await t.app.inject({
          method: 'GET',
          url: '/api/pay/get_Client',
          headers: { cookie: jane },
        });
        expect(after.statusCode, after.body).toBe(200);
        if (round >= 5 && (statuses.get(503) ?? 0) > 0) break;
      }
      expect(uncaught).toEqual([]);
      // The fault was really injected: some requests lost their connection.
      expect(statuses.get(503) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
    });
  });
}
