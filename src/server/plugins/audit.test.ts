import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, clients } from '../db/schema';
import { startTestApp, type TestApp } from '../testing/test-app';
import { createAuditWriter } from './audit';

/**
 * The answers of audited routes finishing together share one INSERT (a group commit), and still
 * none leaves before its row is committed: when the INSERT fails, every answer of its batch fails.
 */

type Row = Parameters<ReturnType<typeof createAuditWriter>['write']>[0][number];

const row = (route: string): Row => ({
  at: new Date('2026-03-03T10:00:00Z'),
  actorRole: 'public',
  actorId: '00000000-0000-0000-0000-000000000000',
  clientId: null,
  action: 'read-client',
  route,
  documentId: null,
  ip: '10.0.0.1',
  statusCode: 200,
});

/** An insert the test settles by hand, one call at a time. */
function heldInsert() {
  const calls: Array<{ routes: string[]; commit(): void; fail(error: Error): void }> = [];
  const insert = (rows: Row[]) =>
    new Promise<void>((commit, fail) => {
      calls.push({ routes: rows.map((r) => r.route), commit, fail });
    });
  return { calls, insert };
}

/** One turn of the event loop: the writer takes its next batch on the turn after it is asked. */
const turn = () => new Promise((done) => setImmediate(done));

/** Whether each promise has settled yet, and how, once the writer has had its turn. */
async function outcomes(promises: Promise<void>[]): Promise<string[]> {
  const seen = promises.map(() => 'waiting');
  promises.forEach((p, i) => {
    p.then(
      () => {
        seen[i] = 'recorded';
      },
      (error: Error) => {
        seen[i] = `failed: ${error.message}`;
      },
    );
  });
  await turn();
  await turn();
  return seen;
}

describe('the audit writer (a group commit)', () => {
  it('writes a lone answer on the next turn, and the answers that finish meanwhile together in the next INSERT', async () => {
    const { calls, insert } = heldInsert();
    const writer = createAuditWriter(insert);
    const first = writer.write([row('a')]);
    expect(calls).toEqual([]);
    await turn();
    expect(calls.map((c) => c.routes)).toEqual([['a']]);
    const others = [writer.write([row('b')]), writer.write([row('c'), row('c')]), writer.write([row('d')])];
    // Nothing more is sent while the first INSERT is on its way, and nobody is released early.
    expect(await outcomes([first, ...others])).toEqual(['waiting', 'waiting', 'waiting', 'waiting']);
    expect(calls).toHaveLength(1);
    calls[0]?.commit();
    expect(await outcomes([first, ...others])).toEqual(['recorded', 'waiting', 'waiting', 'waiting']);
    expect(calls.map((c) => c.routes)).toEqual([['a'], ['b', 'c', 'c', 'd']]);
    calls[1]?.commit();
    expect(await outcomes(others)).toEqual(['recorded', 'recorded', 'recorded']);
  });

  it('takes the answers that finish in the same turn as one batch', async () => {
    const { calls, insert } = heldInsert();
    const writer = createAuditWriter(insert);
    const writes = [writer.write([row('a')]), writer.write([row('b')])];
    await turn();
    expect(calls.map((c) => c.routes)).toEqual([['a', 'b']]);
    calls[0]?.commit();
    expect(await outcomes(writes)).toEqual(['recorded', 'recorded']);
  });

  it('fails every answer of a batch whose INSERT fails, and goes on with the next batch', async () => {
    const { calls, insert } = heldInsert();
    const writer = createAuditWriter(insert);
    const first = writer.write([row('a')]);
    await turn();
    const batch = [writer.write([row('b')]), writer.write([row('c')])];
    calls[0]?.commit();
    await outcomes([first]);
    const later = writer.write([row('d')]);
    calls[1]?.fail(new Error('insert refused'));
    expect(await outcomes([first, ...batch, later])).toEqual([
      'recorded',
      'failed: insert refused',
      'failed: insert refused',
      'waiting',
    ]);
    expect(calls.map((c) => c.routes)).toEqual([['a'], ['b', 'c'], ['d']]);
    calls[2]?.commit();
    expect(await outcomes([later])).toEqual(['recorded']);
  });

  it('keeps a batch to whole answers within the rows of one INSERT; a longer answer goes alone', async () => {
    const { calls, insert } = heldInsert();
    const writer = createAuditWriter(insert, 3);
    const writes = [
      writer.write([row('a')]),
      writer.write([row('b'), row('b')]),
      writer.write([row('c')]),
      writer.write([row('d'), row('d'), row('d'), row('d')]),
      writer.write([row('e')]),
    ];
    await turn();
    for (let i = 0; i < 4; i += 1) {
      calls[i]?.commit();
      await outcomes(writes);
    }
    expect(calls.map((c) => c.routes)).toEqual([['a', 'b', 'b'], ['c'], ['d', 'd', 'd', 'd'], ['e']]);
    expect(await outcomes(writes)).toEqual(['recorded', 'recorded', 'recorded', 'recorded', 'recorded']);
  });
});

describe('audited reads under load (through HTTP, on the real trail)', () => {
  let t: TestApp;
  let jane: string;
  let john: string;
  let janeId: string;
  let johnId: string;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_LOGIN_PER_IP: '1000' });
    jane = await t.signIn('ACT10001');
    john = await t.signIn('ACT10002');
    const ids = await t.db.select({ id: clients.id, act: clients.clientActId }).from(clients);
    janeId = ids.find((c) => c.act === 'ACT10001')?.id as string;
    johnId = ids.find((c) => c.act === 'ACT10002')?.id as string;
    // How many rows each INSERT into the trail carried, counted by the owner beside the trail.
    await t.ownerDb.execute(sql`create table audit_inserts (rows int not null)`);
    await t.ownerDb.execute(sql`
      create function count_audit_insert() returns trigger language plpgsql security definer as $$
      begin
        insert into audit_inserts select count(*) from inserted;
        return null;
      end $$`);
    await t.ownerDb.execute(sql`
      create trigger count_audit_insert after insert on audit_events
      referencing new table as inserted for each statement execute function count_audit_insert()`);
  });
  afterAll(() => t?.close());

  const getClient = (cookie: string) =>
    t.app.inject({ method: 'GET', url: '/api/pay/get_Client', headers: { cookie } });
  const rowsOf = async (clientId: string) =>
    (
      await t.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.clientId, clientId), eq(auditEvents.route, 'GET /api/pay/get_Client')))
    ).length;

  it('records each of 30 concurrent reads, one row each, in fewer INSERTs than reads', async () => {
    const before = await rowsOf(johnId);
    await t.ownerDb.execute(sql`delete from audit_inserts`);
    const answers = await Promise.all(Array.from({ length: 30 }, () => getClient(john)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(30).fill(200));
    expect(await rowsOf(johnId)).toBe(before + 30);
    const inserts = (await t.ownerDb.execute(sql`select rows from audit_inserts`)) as unknown as {
      rows: Array<{ rows: number }>;
    };
    const perInsert = inserts.rows.map((r) => Number(r.rows));
    expect(perInsert.reduce((a, b) => a + b, 0)).toBe(30);
    expect(perInsert.length).toBeLessThan(30);
  });

  it('lets no answer leave unrecorded when the INSERT fails: the failed ones leave no row, the sent ones one each', async () => {
    await t.ownerDb.execute(sql`
      create function refuse_jane_audit() returns trigger language plpgsql as $$
      begin
        if new.client_id = ${sql.raw(`'${janeId}'`)} then raise exception 'audit refused for the test'; end if;
        return new;
      end $$`);
    await t.ownerDb.execute(sql`
      create trigger refuse_jane_audit before insert on audit_events
      for each row execute function refuse_jane_audit()`);
    try {
      const janeBefore = await rowsOf(janeId);
      const johnBefore = await rowsOf(johnId);
      const calls = Array.from({ length: 30 }, (_, i) => ({ who: i % 3 === 0 ? 'jane' : 'john' }));
      const answers = await Promise.all(calls.map((c) => getClient(c.who === 'jane' ? jane : john)));
      const status = (who: string, code: number) =>
        answers.filter((a, i) => calls[i]?.who === who && a.statusCode === code).length;
      // Jane's reads all fail, as an answer whose row could not be written does today.
      expect(status('jane', 500)).toBe(10);
      expect(await rowsOf(janeId)).toBe(janeBefore);
      for (const answer of answers.filter((a) => a.statusCode !== 200)) {
        expect(answer.statusCode).toBe(500);
        expect(answer.json()).toMatchObject({ code: 'INTERNAL' });
        expect(answer.body).not.toContain('ACT1000');
      }
      // John's reads that shared an INSERT with one of Jane's failed with it; each that was sent has its row.
      expect(status('john', 200) + status('john', 500)).toBe(20);
      expect(await rowsOf(johnId)).toBe(johnBefore + status('john', 200));
    } finally {
      await t.ownerDb.execute(sql`drop trigger refuse_jane_audit on audit_events`);
    }
    const after = await Promise.all([getClient(jane), getClient(john)]);
    expect(after.map((a) => a.statusCode)).toEqual([200, 200]);
  });
});
