import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { todayFor } from '../../domain/client';
import { type DatabaseHandle, openPostgres, wrapPglite } from '../db/client';
import { seedDemoData } from '../db/seed';

/**
 * Test databases: migrated and seeded once per run (a template), then copied for each test file.
 * With TEST_DATABASE_URL the copies are PostgreSQL databases made from a template database;
 * without it they are PGlite instances loaded from a dump of the template.
 */

const PGLITE_TEMPLATE = path.join(
  os.tmpdir(),
  `portal-pglite-template-${process.env.TEST_RUN_ID ?? 'local'}.tar`,
);

export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
}

function templateName(): string {
  return `portal_template_${(process.env.TEST_RUN_ID ?? 'local').replace(/\W/g, '_')}`;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Called once per test run (vitest globalSetup). */
export async function prepareTemplate(): Promise<() => Promise<void>> {
  const today = todayFor(new Date());
  if (testDatabaseKind() === 'postgres') {
    const name = templateName();
    await adminQuery(`drop database if exists ${name}`);
    await adminQuery(`create database ${name}`);
    const handle = openPostgres(withDatabase(process.env.TEST_DATABASE_URL as string, name), 2);
    await handle.migrate();
    await seedDemoData(handle.db, today);
    await handle.close();
    return async () => {
      await adminQuery(`drop database if exists ${name} with (force)`);
    };
  }
  const client = await PGlite.create();
  const handle = wrapPglite(client);
  await handle.migrate();
  await seedDemoData(handle.db, today);
  const dump = await client.dumpDataDir('none');
  fs.writeFileSync(PGLITE_TEMPLATE, Buffer.from(await dump.arrayBuffer()));
  await client.close();
  return async () => fs.rmSync(PGLITE_TEMPLATE, { force: true });
}

let counter = 0;

/** A fresh copy of the template database for one test file. */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  if (testDatabaseKind() === 'postgres') {
    counter += 1;
    const name = `portal_test_${process.pid}_${counter}_${Date.now() % 100000}`;
    await adminQuery(`create database ${name} template ${templateName()}`);
    const handle = openPostgres(withDatabase(process.env.TEST_DATABASE_URL as string, name), 4);
    return {
      ...handle,
      async close() {
        await handle.close();
        await adminQuery(`drop database if exists ${name} with (force)`);
      },
    };
  }
  const dump = fs.readFileSync(PGLITE_TEMPLATE);
  const client = await PGlite.create({ loadDataDir: new Blob([dump]) });
  return wrapPglite(client);
}
