import pg from 'pg';
import { randomToken, sha256Hex } from '../lib/secrets';

/**
 * The fault suite's databases on the PostgreSQL server of TEST_DATABASE_URL: a template migrated
 * and seeded once by a real server process, then one copy per scenario, all dropped at the end.
 * The checks read the tables with plain SQL, as an auditor would. With
 * TEST_DATABASE_MIGRATION_URL (as .ci/run sets it) that owner role makes the databases, migrates
 * them and reads them; the servers run as the restricted role of TEST_DATABASE_URL.
 */

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export class Admin {
  private readonly created = new Set<string>();

  /** `serverUrl`: the owner role's; `appServerUrl`: the role the servers run as. */
  constructor(
    private readonly serverUrl: string,
    private readonly appServerUrl: string = serverUrl,
  ) {}

  /** The URL the portal's processes connect to the database with (the app role). */
  appUrl(name: string): string {
    return databaseUrl(this.appServerUrl, name);
  }

  private async run<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: databaseUrl(this.serverUrl, 'postgres') });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  async create(name: string, template?: string): Promise<string> {
    const sql = template ? `create database ${name} template ${template}` : `create database ${name}`;
    // A template still held by a process that just exited is released within moments.
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.run(sql);
        break;
      } catch (error) {
        if (!template || attempt >= 20 || !/being accessed/.test((error as Error).message)) throw error;
        await this.terminateBackends(template);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    this.created.add(name);
    return databaseUrl(this.serverUrl, name);
  }

  /** Cuts every connection to the database (the server's pool): answers how many were cut. */
  async terminateBackends(name: string): Promise<number> {
    const rows = await this.run<{ terminated: boolean }>(
      'select pg_terminate_backend(pid) as terminated from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    return rows.filter((r) => r.terminated).length;
  }

  async drop(name: string): Promise<void> {
    await this.run(`drop database if exists ${name} with (force)`);
    this.created.delete(name);
  }

  async dropAll(): Promise<void> {
    for (const name of [...this.created]) {
      await this.drop(name).catch((error: unknown) => {
        console.error(`could not drop ${name}: ${(error as Error).message}`);
      });
    }
  }
}

/** A small pool on one scenario's database, for preparing clients and reading the outcome. */
export function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  // The connection storm cuts these too: a pool error must not end the suite.
  pool.on('error', () => {});
  return pool;
}

export async function rows<T extends pg.QueryResultRow>(
  pool: pg.Pool,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  return (await pool.query<T>(sql, params)).rows;
}

export async function tableExists(pool: pg.Pool, table: string): Promise<boolean> {
  const [row] = await rows<{ found: string | null }>(pool, 'select to_regclass($1)::text as found', [
    `public.${table}`,
  ]);
  return Boolean(row?.found);
}

export interface PreparedClient {
  id: string;
  actId: string;
}

/**
 * Clients added for a scenario, signing in with the demo password (John's hash): payers owe two
 * past-due years exactly like John (ACT10002); signers have paid their initial processing and not
 * yet signed the consent; screeners have signed it and not yet sent their infectious disease
 * screening; orderers have signed it, their cells banked in 2021 and one pre-paid Bio-Insurance
 * vial, so that they may order vials or the store's serum.
 */
export async function addClients(
  pool: pg.Pool,
  prefix: string,
  count: number,
  kind: 'payer' | 'signer' | 'screener' | 'orderer',
): Promise<PreparedClient[]> {
  const made = await rows<PreparedClient>(
    pool,
    `insert into clients (client_act_id, password_hash, first_name, last_name, date_of_birth, email, country,
        annual_storage_paid_until, initial_processing_form_completed, client_consent_form_completed,
        infectious_disease_form_completed)
     select $1 || lpad(n::text, 3, '0'), john.password_hash, 'Fault', 'Client' || n, date '1980-01-01',
        lower($1) || lpad(n::text, 3, '0') || '@example.com', 'United States',
        case when $3 = 'payer' then john.annual_storage_paid_until else current_date + 365 end,
        true, $3 <> 'signer', false
     from generate_series(1, $2::int) as n, (select * from clients where client_act_id = 'ACT10002') as john
     returning id, client_act_id as "actId"`,
    [prefix, count, kind],
  );
  if (made.length !== count) throw new Error(`expected ${count} clients, made ${made.length} (no John?)`);
  if (kind === 'orderer') {
    await pool.query(
      `update clients set date_banked_in = date '2021-01-15', bio_insurance_vials_available = 1
       where id = any($1::uuid[])`,
      [made.map((c) => c.id)],
    );
  }
  if (kind === 'payer') {
    await pool.query(
      `insert into annual_storage_fees (client_id, due_date, amount_cents, status)
       select c.id, f.due_date, f.amount_cents, 'overdue'
       from clients c, annual_storage_fees f join clients john on john.id = f.client_id
       where john.client_act_id = 'ACT10002' and f.paid_at is null and c.id = any($1::uuid[])`,
      [made.map((c) => c.id)],
    );
  }
  return made.sort((a, b) => a.actId.localeCompare(b.actId));
}

/**
 * Session cookies for many clients at once, written the way the session service writes them (the
 * row keeps the SHA-256 of the cookie's token): signing 40 clients in through the API costs 40
 * password hashes per scenario, and the sign-in is not what this suite tests.
 */
export async function openSessions(pool: pg.Pool, clientIds: string[]): Promise<Map<string, string>> {
  const tokens = clientIds.map(() => randomToken());
  await pool.query(
    `insert into sessions (id, role, client_id, created_at, last_seen_at, expires_at)
     select hash, 'client', client_id, now(), now(), now() + interval '1 day'
     from unnest($1::text[], $2::uuid[]) as s(hash, client_id)`,
    [tokens.map(sha256Hex), clientIds],
  );
  return new Map(clientIds.map((id, i) => [id, `portal_session=${tokens[i]}`]));
}

/**
 * Moves the sandbox gateway's record of these clients' charges two days back, into a batch that
 * has settled: a charge made during the scenario is still in the open batch, which a refund
 * refuses (it is voided whole instead).
 */
export async function settleCharges(pool: pg.Pool, clientIds: string[]): Promise<number> {
  const result = await pool.query(
    `update sandbox_transactions t set created_at = t.created_at - interval '2 days'
     from payments p where p.reference = t.reference and p.client_id = any($1::uuid[])`,
    [clientIds],
  );
  return result.rowCount ?? 0;
}

/** A session cookie of the demo admin (staff@example.com), written as openSessions writes a client's. */
export async function openStaffSession(pool: pg.Pool): Promise<{ staffId: string; cookie: string }> {
  const [admin] = await rows<{ id: string }>(
    pool,
    `select id from staff_accounts where lower(email) = 'staff@example.com' and level = 'admin'`,
  );
  if (!admin) throw new Error('the demo admin (staff@example.com) is not in the database');
  const token = randomToken();
  await pool.query(
    `insert into sessions (id, role, staff_id, staff_level, created_at, last_seen_at, expires_at)
     values ($1, 'staff', $2, 'admin', now(), now(), now() + interval '1 day')`,
    [sha256Hex(token), admin.id],
  );
  return { staffId: admin.id, cookie: `portal_session=${token}` };
}
