import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTableImports, foreignTableImports, tableOwners } from './check-boundaries';

/** A small src tree: the clients module owns `clients`, the platform owns `operations`. */
function writeTree(files: Record<string, string>): { src: string; paths: string[] } {
  const repository = fs.mkdtempSync(path.join(os.tmpdir(), 'check-boundaries-'));
  dirs.push(repository);
  const src = path.join(repository, 'src');
  const all: Record<string, string> = {
    'server/modules/clients/schema.ts':
      "import { pgTable, uuid } from 'drizzle-orm/pg-core';\nexport const clients = pgTable('clients', { id: uuid() });\n",
    'server/db/system-schema.ts':
      "import { pgTable, uuid } from 'drizzle-orm/pg-core';\nexport const operations = pgTable('operations', { id: uuid() });\n",
    'server/db/schema.ts':
      "export * from '../modules/clients/schema';\nexport * from '../modules/ordering/schema';\nexport * from './system-schema';\n",
    'server/modules/ordering/schema.ts': [
      "import { pgTable, uuid } from 'drizzle-orm/pg-core';",
      "import { clients } from '../clients/schema';",
      "export const vialRequests = pgTable('vial_requests', { clientId: uuid().references(() => clients.id) });",
      '',
    ].join('\n'),
    ...files,
  };
  for (const [file, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(src, file)), { recursive: true });
    fs.writeFileSync(path.join(src, file), text);
  }
  return { src, paths: Object.keys(all).map((file) => path.join(src, file)) };
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('tableOwners', () => {
  it("reads each table's owner from the schema file that defines it", () => {
    const { src } = writeTree({});
    const owners = tableOwners(src);
    expect(Object.fromEntries([...owners].map(([table, { owner }]) => [table, owner]))).toEqual({
      operations: 'platform',
      clients: 'modules/clients',
      vialRequests: 'modules/ordering',
    });
  });
});

describe('checkTableImports', () => {
  it("refuses a module importing another module's table from the db/schema barrel", () => {
    const { src, paths } = writeTree({
      'server/modules/ordering/vials.ts':
        "import { eq } from 'drizzle-orm';\nimport { clients, vialRequests } from '../../db/schema';\nexport const q = [eq, clients, vialRequests];\n",
    });
    expect(checkTableImports(src, paths, {})).toEqual([
      'src/server/modules/ordering/vials.ts:2: imports the table "clients" owned by modules/clients: ' +
        "call modules/clients's functions instead, or add one there",
    ]);
  });

  it("refuses a module importing another module's table from the owner's schema.ts, even as a type", () => {
    const { src, paths } = writeTree({
      'server/modules/ordering/vials.ts':
        "import type { clients } from '../clients/schema';\nexport type Client = typeof clients.$inferSelect;\n",
      'server/modules/staff/queue.ts':
        "import * as clientTables from '../clients/schema';\nexport { clientTables };\n",
    });
    expect(foreignTableImports(src, paths)).toEqual([
      { file: 'src/server/modules/ordering/vials.ts', line: 1, table: 'clients', owner: 'modules/clients' },
      { file: 'src/server/modules/staff/queue.ts', line: 1, table: '*', owner: 'modules/clients' },
    ]);
    expect(checkTableImports(src, paths, {})).toHaveLength(2);
  });

  it("refuses a module importing the platform's tables, and the platform importing a module's", () => {
    const { src, paths } = writeTree({
      'server/modules/ordering/replay.ts':
        "import { operations } from '../../db/schema';\nexport { operations };\n",
      'server/jobs/sweep.ts': "import { clients } from '../db/schema';\nexport { clients };\n",
    });
    expect(foreignTableImports(src, paths).map(({ file, table }) => `${file} ${table}`)).toEqual([
      'src/server/modules/ordering/replay.ts operations',
      'src/server/jobs/sweep.ts clients',
    ]);
  });

  it("accepts the owner's own files, the platform's own tables, a foreign key between schema files, tests and seeds", () => {
    const { src, paths } = writeTree({
      'server/modules/clients/client-repository.ts':
        "import { clients } from './schema';\nimport { clients as again } from '../../db/schema';\nexport const all = [clients, again];\n",
      'server/lib/run-once.ts': "import { operations } from '../db/schema';\nexport { operations };\n",
      'server/modules/ordering/vials.test.ts':
        "import { clients } from '../../db/schema';\nexport { clients };\n",
      'server/testing/fixtures.ts':
        "import { clients, operations } from '../db/schema';\nexport { clients, operations };\n",
      'server/db/seed.ts':
        "import { clients, vialRequests } from './schema';\nexport { clients, vialRequests };\n",
      'server/modules/ordering/vials.ts':
        "import { vialRequests } from './schema';\nimport { type Client, findClient } from '../clients/client-repository';\nexport { vialRequests, findClient, type Client };\n",
    });
    expect(checkTableImports(src, paths, {})).toEqual([]);
  });

  it('accepts an import the allow-list names, and refuses an entry that no longer matches an import', () => {
    const { src, paths } = writeTree({
      'server/modules/ordering/vials.ts': "import { clients } from '../../db/schema';\nexport { clients };\n",
    });
    expect(checkTableImports(src, paths, { 'src/server/modules/ordering/vials.ts': ['clients'] })).toEqual(
      [],
    );
    expect(
      checkTableImports(src, paths, {
        'src/server/modules/ordering/vials.ts': ['clients', 'operations'],
        'src/server/modules/staff/gone.ts': ['clients'],
      }),
    ).toEqual([
      'src/server/modules/ordering/vials.ts: no longer imports "operations": remove it from foreign-table-imports.json, the list only shrinks',
      'src/server/modules/staff/gone.ts: no longer imports "clients": remove it from foreign-table-imports.json, the list only shrinks',
    ]);
  });
});
