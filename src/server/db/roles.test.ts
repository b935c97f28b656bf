import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  type TestDatabase,
  testDatabaseKind,
  testOwnerUrl,
  withDatabase,
} from '../testing/test-database';
import { type Database, openPostgres } from './client';
import { grantAppRole } from './migrate';

/**
 * The audit trail is append-only against the portal itself: the app runs as a role that owns no
 * table and may only INSERT and SELECT on the trail, so it can neither change, remove nor truncate
 * rows, nor disable the trail's trigger or drop the table. The owner role migrates; a TRUNCATE
 * guard refuses it too.
 */

/** The database's own words for a refused statement (drizzle wraps them in its "Failed query"). */
async function refusal(db: Database, statement: string): Promise<string> {
  try {
    await db.execute(sql.raw(statement));
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : (error as Error).message;
  }
  return 'accepted';
}

async function auditRows(db: Database): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select count(*)::int as n from audit_events`);
  return (result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n as number;
}

async function currentAppRole(db: Database): Promise<string> {
  const result = await db.execute<{ role: string }>(sql`select current_user as role`);
  return (result as unknown as { rows: Array<{ role: string }> }).rows[0]?.role as string;
}

async function currentDatabase(db: Database): Promise<string> {
  const result = await db.execute<{ name: string }>(sql`select current_database() as name`);
  return (result as unknown as { rows: Array<{ name: string }> }).rows[0]?.name as string;
}

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
  // One row to keep: a refused statement leaves it where it is.
  await database.owner.db.execute(
    sql`insert into audit_events (at, actor_role, actor_id, action, route, ip, status_code)
        values (now(), 'staff', gen_random_uuid(), 'read', '/probe', '10.1.1.1', 200)`,
  );
});
afterAll(() => database.close());

describe('the TRUNCATE guard on the audit trail (both databases)', () => {
  it('refuses TRUNCATE even to the owner of the table', async () => {
    expect(await refusal(database.owner.db, 'truncate audit_events')).toBe(
      'audit_events is append-only: TRUNCATE refused',
    );
    expect(await auditRows(database.owner.db)).toBeGreaterThan(0);
  });
});

describe('the job queue (both databases)', () => {
  it('has its queues made at migration, pg-boss’s own cron queue included: the app role makes no table', async () => {
    const queues = await database.owner.db.execute<{ name: string }>(
      sql`select name from pgboss.queue order by name`,
    );
    expect((queues as unknown as { rows: unknown[] }).rows).toEqual([
      { name: '__pgboss__send-it' },
      { name: 'clean-up' },
      { name: 'deliver-mail' },
      { name: 'reconcile-operations' },
      { name: 'storage-billing' },
    ]);
  });
});

const twoRoles =
  testDatabaseKind() === 'postgres' &&
  Boolean(process.env.TEST_DATABASE_MIGRATION_URL) &&
  process.env.TEST_DATABASE_MIGRATION_URL !== process.env.TEST_DATABASE_URL;

describe.skipIf(!twoRoles)(
  'the app role on the audit trail (PostgreSQL with TEST_DATABASE_MIGRATION_URL, as .ci/run sets it)',
  () => {
    it('may insert and read audit rows', async () => {
      const before = await auditRows(database.db);
      await database.db.execute(
        sql`insert into audit_events (at, actor_role, actor_id, action, route, ip, status_code)
        values (now(), 'staff', gen_random_uuid(), 'read', '/probe', '10.1.1.1', 200)`,
      );
      expect(await auditRows(database.db)).toBe(before + 1);
    });

    it('may not change, remove or truncate audit rows', async () => {
      const before = await auditRows(database.owner.db);
      expect(await refusal(database.db, "update audit_events set route = '/changed'")).toBe(
        'permission denied for table audit_events',
      );
      expect(await refusal(database.db, 'delete from audit_events')).toBe(
        'permission denied for table audit_events',
      );
      expect(await refusal(database.db, 'truncate audit_events')).toBe(
        'permission denied for table audit_events',
      );
      expect(await auditRows(database.owner.db)).toBe(before);
    });

    it('may not disable the trail’s triggers, alter or drop the table', async () => {
      for (const statement of [
        'alter table audit_events disable trigger audit_events_append_only',
        'alter table audit_events disable trigger all',
        'drop trigger audit_events_no_truncate on audit_events',
        'alter table audit_events owner to current_user',
        'drop table audit_events',
      ]) {
        // PostgreSQL says "relation" for a trigger's table, "table" otherwise.
        expect(await refusal(database.db, statement), statement).toMatch(
          /^must be owner of (table|relation) audit_events$/,
        );
      }
      const triggers = await database.owner.db.execute<{ name: string; enabled: string }>(
        sql`select tgname as name, tgenabled as enabled from pg_trigger
            where tgrelid = 'audit_events'::regclass and not tgisinternal order by tgname`,
      );
      expect((triggers as unknown as { rows: unknown[] }).rows).toEqual([
        { name: 'audit_events_append_only', enabled: 'O' },
        { name: 'audit_events_no_truncate', enabled: 'O' },
      ]);
    });

    it('owns no table, may not create one, and reads and writes the other tables', async () => {
      const owned = await database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from pg_tables
            where tableowner = current_user and schemaname in ('public', 'pgboss')`,
      );
      expect((owned as unknown as { rows: Array<{ n: number }> }).rows[0]?.n).toBe(0);
      expect(await refusal(database.db, 'create table app_made (n int)')).toBe(
        'permission denied for schema public',
      );
      expect(await refusal(database.db, 'truncate clients')).toBe('permission denied for table clients');
      expect(
        await refusal(database.db, "update clients set city = city where client_act_id = 'ACT10001'"),
      ).toBe('accepted');
    });

    it('is granted its rights by several processes starting at once, none of them refused', async () => {
      // Two servers starting together (the billing simulation's) granted on the same tables at
      // once, and PostgreSQL refused one: "tuple concurrently updated".
      const appRole = await currentAppRole(database.db);
      const url = withDatabase(testOwnerUrl() as string, await currentDatabase(database.db));
      const starting = Array.from({ length: 4 }, () => openPostgres(url, 1));
      try {
        for (let round = 0; round < 5; round += 1) {
          const grants = await Promise.allSettled(starting.map((owner) => grantAppRole(owner, appRole)));
          expect(grants.map((g) => (g.status === 'rejected' ? String(g.reason) : 'granted'))).toEqual(
            Array(4).fill('granted'),
          );
        }
      } finally {
        await Promise.all(starting.map((owner) => owner.close()));
      }
    });

    it('is refused its rights while it owns a table, with how to hand it to the owner', async () => {
      const appRole = await currentAppRole(database.db);
      await database.owner.db.execute(sql.raw(`create table app_owned (n int)`));
      await database.owner.db.execute(sql.raw(`alter table app_owned owner to "${appRole}"`));
      try {
        await expect(grantAppRole(database.owner, appRole)).rejects.toThrow(
          `The app role ${appRole} (DATABASE_URL) owns 1 table(s) (public.app_owned…): it could truncate or drop them. Hand them to the owner role of DATABASE_MIGRATION_URL first (REASSIGN OWNED BY ${appRole} TO <owner>).`,
        );
      } finally {
        await database.owner.db.execute(sql`drop table app_owned`);
      }
    });
  },
);
