import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { todayFor } from '../../domain/client';
import { type DatabaseHandle, openPostgres, wrapPglite } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { seedDemoData } from '../db/seed';

/**
 * Test databases: migrated and seeded once per run (a template), then copied for each test file.
 * With TEST_DATABASE_URL the copies are PostgreSQL databases made from a template database;
 * without it they are PGlite instances loaded from a dump of the template.
 *
 * On PostgreSQL the app runs as the role of TEST_DATABASE_URL and the databases are made, migrated
 * and dropped by the owner role of TEST_DATABASE_MIGRATION_URL (default: the same), as in
 * production with two roles (.ci/run makes a restricted app role).
 */

/**
 * The template of this run, one per vitest project: a project's global setup passes its
 * TEST_TEMPLATE, and its workers read the same from their environment.
 */
function templateKey(project = process.env.TEST_TEMPLATE): string {
  return [process.env.TEST_RUN_ID ?? 'local', project].filter(Boolean).join('_');
}

function pgliteTemplate(project?: string): string {
  return path.join(os.tmpdir(), `portal-pglite-template-${templateKey(project)}.tar`);
}

export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
}

function templateName(project?: string): string {
  return `portal_template_${templateKey(project).replace(/\W/g, '_')}`;
}

/** The same server and role as `url`, on the database `name`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The owner role's URL (PostgreSQL): it makes, migrates and drops the test databases. */
export function testOwnerUrl(): string | undefined {
  return process.env.TEST_DATABASE_MIGRATION_URL ?? process.env.TEST_DATABASE_URL;
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: testOwnerUrl() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Called once per test run and project (vitest globalSetup). */
export async function prepareTemplate(project?: string): Promise<() => Promise<void>> {
  const today = todayFor(new Date());
  if (testDatabaseKind() === 'postgres') {
    const name = templateName(project);
    await adminQuery(`drop database if exists ${name}`);
    await adminQuery(`create database ${name}`);
    const owner = openPostgres(withDatabase(testOwnerUrl() as string, name), 2);
    const app = openPostgres(withDatabase(process.env.TEST_DATABASE_URL as string, name), 1);
    try {
      await migrateDatabase(owner, app);
      await seedDemoData(owner.db, today);
    } finally {
      await app.close();
      await owner.close();
    }
    return async () => {
      await adminQuery(`drop database if exists ${name} with (force)`);
    };
  }
  const client = await PGlite.create();
  const handle = wrapPglite(client);
  await migrateDatabase(handle);
  await seedDemoData(handle.db, today);
  const dump = await client.dumpDataDir('none');
  const file = pgliteTemplate(project);
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  return async () => fs.rmSync(file, { force: true });
}

let counter = 0;

export interface TestDatabase extends DatabaseHandle {
  /**
   * The same database as its owner role, for what a test does that the app's role may not
   * (a constraint added to make a write fail); the app's own handle on PGlite or with one role.
   */
  owner: DatabaseHandle;
}

/** A fresh copy of the template database for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind() === 'postgres') {
    counter += 1;
    const name = `portal_test_${process.pid}_${counter}_${Date.now() % 100000}`;
    // Made by the owner from the template: the copy's tables are the owner's, with the app role's
    // grants as the template had them.
    await adminQuery(`create database ${name} template ${templateName()}`);
    const handle = openPostgres(withDatabase(process.env.TEST_DATABASE_URL as string, name), 4);
    const owner = openPostgres(withDatabase(testOwnerUrl() as string, name), 1);
    return {
      ...handle,
      owner,
      async close() {
        await handle.close();
        await owner.close();
        await adminQuery(`drop database if exists ${name} with (force)`);
      },
    };
  }
  const dump = fs.readFileSync(pgliteTemplate());
  const client = await PGlite.create({ loadDataDir: new Blob([dump]) });
  const handle = wrapPglite(client);
  return { ...handle, owner: handle };
}
