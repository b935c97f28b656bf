import { installJobQueue } from '../jobs/jobs';
import { type DatabaseHandle, MIGRATION_LOCK_KEY } from './client';

/**
 * Two database roles in production (README, "Database roles"): the owner of the tables
 * (DATABASE_MIGRATION_URL) migrates them, pg-boss's schema included, and grants the app role
 * (DATABASE_URL) what the portal needs, nothing more: rows of the app's tables, and on the audit
 * trail only INSERT and SELECT. The app role owns nothing, so it cannot TRUNCATE, ALTER (disable a
 * trigger) or DROP a table. With one URL (and on PGlite) the one role does both, as before.
 */

/** Only INSERT and SELECT: the trail's rows are never changed or removed, by the portal either. */
const APPEND_ONLY_TABLES = ['audit_events'];
const SCHEMAS = ['public', 'pgboss'];

/** The role's name as an SQL identifier. */
function identifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function currentRole(database: DatabaseHandle): Promise<string> {
  const { rows } = await database.executeSql('select current_user as role');
  return (rows[0] as { role: string }).role;
}

/**
 * Grants the app role its rights on every table there is now (run after each migration, so new
 * tables are covered); refuses to start when the app role owns a table (an installation that ran
 * with one role before: README says how to hand its tables to the owner).
 */
export async function grantAppRole(owner: DatabaseHandle, appRole: string): Promise<void> {
  const owned = await owner.executeSql(
    `select schemaname || '.' || tablename as name from pg_tables
     where tableowner = $1 and schemaname = any($2::text[]) order by 1`,
    [appRole, SCHEMAS],
  );
  if (owned.rows.length > 0) {
    const names = (owned.rows as Array<{ name: string }>).map((r) => r.name);
    throw new Error(
      `The app role ${appRole} (DATABASE_URL) owns ${names.length} table(s) (${names.slice(0, 3).join(', ')}…): it could truncate or drop them. Hand them to the owner role of DATABASE_MIGRATION_URL first (REASSIGN OWNED BY ${appRole} TO <owner>).`,
    );
  }
  const role = identifier(appRole);
  // Two processes starting together would GRANT on the same tables at once, and PostgreSQL refuses
  // the second ("tuple concurrently updated"): the lock, held to the end of this one transaction,
  // makes the second wait for the first (and for a migration under way).
  const statements = [
    `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`,
    ...SCHEMAS.flatMap((schema) => [
      `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
      `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
    ]),
  ];
  for (const table of APPEND_ONLY_TABLES) {
    statements.push(`REVOKE ALL ON ${table} FROM ${role}`, `GRANT SELECT, INSERT ON ${table} TO ${role}`);
  }
  // One query without values is one transaction: the app role never has half its rights.
  await owner.executeSql(statements.join(';\n'));
}

/**
 * Everything a start needs before serving: the portal's migrations and pg-boss's schema, by the
 * owner; then, when the app connects as another role, that role's rights.
 */
export async function migrateDatabase(owner: DatabaseHandle, app: DatabaseHandle = owner): Promise<void> {
  await owner.migrate();
  await installJobQueue(owner);
  if (app === owner) return;
  const [ownerRole, appRole] = await Promise.all([currentRole(owner), currentRole(app)]);
  if (ownerRole !== appRole) await grantAppRole(owner, appRole);
}
