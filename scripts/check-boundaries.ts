/**
 * The import rules of DESIGN.md section 1: web -> domain, server -> domain, never web <-> server;
 * domain is pure (zod only, no I/O); features of the web app never import each other; and a
 * module never imports another module's tables, only its functions (see checkTableImports).
 * Prints each breach as file:line and exits 1 when there is one.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
const DOMAIN_PACKAGES = new Set(['zod']);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name)) yield full;
  }
}

function zoneOf(file: string): { zone: 'domain' | 'server' | 'web' | 'other'; feature?: string } {
  const rel = path.relative(src, file).split(path.sep);
  const zone = rel[0] === 'domain' || rel[0] === 'server' || rel[0] === 'web' ? rel[0] : 'other';
  const feature = zone === 'web' && rel[1] === 'features' ? rel[2] : undefined;
  return { zone, feature };
}

export function checkBoundaries(files: Iterable<string>): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const from = zoneOf(file);
    for (const match of text.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      const line = text.slice(0, match.index).split('\n').length;
      const where = `${path.relative(root, file)}:${line}`;
      if (!specifier.startsWith('.')) {
        const pkg = specifier.startsWith('@')
          ? specifier.split('/').slice(0, 2).join('/')
          : specifier.split('/')[0];
        if (from.zone === 'domain' && !DOMAIN_PACKAGES.has(pkg ?? '') && !file.endsWith('.test.ts')) {
          problems.push(`${where}: src/domain is pure and may import only zod, not "${specifier}"`);
        }
        continue;
      }
      const target = zoneOf(path.resolve(path.dirname(file), specifier));
      if (from.zone === 'domain' && target.zone !== 'domain') {
        problems.push(`${where}: src/domain may not import src/${target.zone} ("${specifier}")`);
      }
      if (from.zone === 'web' && target.zone === 'server') {
        problems.push(`${where}: src/web may not import src/server ("${specifier}")`);
      }
      if (from.zone === 'server' && target.zone === 'web') {
        problems.push(`${where}: src/server may not import src/web ("${specifier}")`);
      }
      if (from.feature && target.feature && from.feature !== target.feature) {
        problems.push(
          `${where}: feature "${from.feature}" may not import feature "${target.feature}" ("${specifier}")`,
        );
      }
    }
  }
  return problems;
}

/** Which folder owns a table: `modules/<name>`, or `platform` (src/server outside modules/). */
type Owner = string;

/** A table's owner and the schema file that defines it. */
interface OwnedTable {
  owner: Owner;
  schemaFile: string;
}

/** Where the platform's tables are defined (run-once, outboxes, documents, sessions, audit, ...). */
const PLATFORM_SCHEMA = 'server/db/system-schema.ts';
/** The barrel that re-exports every table, for drizzle-kit and the database's type. */
const BARREL = 'server/db/schema.ts';
/** The imports of other owners' tables still to move behind their owners' functions. */
const ALLOWED_FILE = path.join(root, 'scripts/foreign-table-imports.json');

/**
 * The owner of a file under `srcDir`: its module's folder, `platform` for the rest of src/server,
 * undefined outside src/server.
 */
function ownerOf(srcDir: string, file: string): Owner | undefined {
  const rel = path.relative(srcDir, file).split(path.sep);
  if (rel[0] !== 'server') return undefined;
  if (rel[1] === 'modules' && rel.length > 3) return `modules/${rel[2]}`;
  return 'platform';
}

/** Every table defined in a schema file under `srcDir` (`export const name = pgTable(`), with its owner. */
export function tableOwners(srcDir: string): Map<string, OwnedTable> {
  const schemaFiles = [path.join(srcDir, PLATFORM_SCHEMA)];
  const modules = path.join(srcDir, 'server/modules');
  if (fs.existsSync(modules)) {
    for (const entry of fs.readdirSync(modules, { withFileTypes: true })) {
      if (entry.isDirectory()) schemaFiles.push(path.join(modules, entry.name, 'schema.ts'));
    }
  }
  const tables = new Map<string, OwnedTable>();
  for (const schemaFile of schemaFiles) {
    if (!fs.existsSync(schemaFile)) continue;
    const owner = ownerOf(srcDir, schemaFile) ?? 'platform';
    for (const [, name] of fs
      .readFileSync(schemaFile, 'utf8')
      .matchAll(/^export const (\w+) = pgTable\(/gm)) {
      tables.set(name as string, { owner, schemaFile });
    }
  }
  return tables;
}

/**
 * Files the table rule leaves alone: tests and their helpers (they arrange and inspect rows of
 * any table), db/ (the barrel, the database client and the demo seeds), and a schema file naming
 * another owner's table for a foreign key.
 */
function mayImportAnyTable(srcDir: string, file: string, targetIsSchema: boolean): boolean {
  const rel = path.relative(srcDir, file).split(path.sep).join('/');
  return (
    /\.test\.tsx?$/.test(rel) ||
    rel.startsWith('server/testing/') ||
    rel.startsWith('server/faults/') ||
    rel.startsWith('server/db/') ||
    (path.basename(file) === 'schema.ts' && targetIsSchema)
  );
}

/** The names a file imports or re-exports from each specifier (`*` for a namespace or `export *`). */
function importedNames(file: string, text: string): { specifier: string; names: string[]; line: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: { specifier: string; names: string[]; line: number }[] = [];
  const line = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const names: string[] = [];
      if (clause?.name) names.push('default');
      if (clause?.namedBindings && ts.isNamespaceImport(clause.namedBindings)) names.push('*');
      if (clause?.namedBindings && ts.isNamedImports(clause.namedBindings)) {
        for (const element of clause.namedBindings.elements) {
          names.push((element.propertyName ?? element.name).text);
        }
      }
      found.push({ specifier: statement.moduleSpecifier.text, names, line: line(statement) });
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      const names =
        clause && ts.isNamedExports(clause)
          ? clause.elements.map((element) => (element.propertyName ?? element.name).text)
          : ['*'];
      found.push({ specifier: statement.moduleSpecifier.text, names, line: line(statement) });
    }
  }
  return found;
}

/** One import of another owner's table: the file, the line, the table and its owner. */
export interface ForeignTableImport {
  /** Relative to src's parent (the repository), with forward slashes. */
  file: string;
  line: number;
  table: string;
  owner: Owner;
}

/**
 * Every import of a table by a file outside its owner's folder, whether from the owner's
 * schema.ts or from the db/schema.ts barrel. A namespace import (`* as schema`) of either counts
 * as an import of every table it reaches, reported as the table `*`.
 */
export function foreignTableImports(srcDir: string, files: Iterable<string>): ForeignTableImport[] {
  const tables = tableOwners(srcDir);
  const schemaOwners = new Map<string, Owner>();
  for (const { owner, schemaFile } of tables.values()) schemaOwners.set(schemaFile, owner);
  const barrel = path.join(srcDir, BARREL);
  const repository = path.dirname(srcDir);
  const found: ForeignTableImport[] = [];
  for (const file of files) {
    const from = ownerOf(srcDir, file);
    if (from === undefined) continue;
    for (const { specifier, names, line } of importedNames(file, fs.readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const resolved = path.resolve(path.dirname(file), specifier);
      const target = resolved.endsWith('.ts') ? resolved : `${resolved}.ts`;
      const schemaOwner = schemaOwners.get(target);
      if (target !== barrel && schemaOwner === undefined) continue;
      if (mayImportAnyTable(srcDir, file, schemaOwner !== undefined)) continue;
      const where = path.relative(repository, file).split(path.sep).join('/');
      for (const name of names) {
        const owner = name === '*' ? (schemaOwner ?? 'every module') : tables.get(name)?.owner;
        if (owner !== undefined && owner !== from) found.push({ file: where, line, table: name, owner });
      }
    }
  }
  return found;
}

/**
 * Today's imports of other owners' tables that are still to be moved behind their owner's
 * functions: file -> tables. The list may only shrink: an import not on it is refused, and an
 * entry that no longer matches an import is refused too, so the list says what is true.
 */
export type AllowedTableImports = Record<string, string[]>;

/**
 * A file in module X may reach a table of module Y only through Y's exported functions: importing
 * Y's table, from Y's schema.ts or by its name from the db/schema.ts barrel, from outside Y's
 * folder is refused, unless the allow-list still names it. The platform (src/server outside
 * modules/) owns the tables of db/system-schema.ts and counts as one owner.
 */
export function checkTableImports(
  srcDir: string,
  files: Iterable<string>,
  allowed: AllowedTableImports,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const { file, line, table, owner } of foreignTableImports(srcDir, files)) {
    seen.add(`${file} ${table}`);
    if (allowed[file]?.includes(table)) continue;
    const what = table === '*' ? `every table of ${owner} (a namespace import)` : `the table "${table}"`;
    problems.push(
      `${file}:${line}: imports ${what} owned by ${owner}: call ${owner}'s functions instead, or add one there`,
    );
  }
  for (const [file, tables] of Object.entries(allowed)) {
    for (const table of tables) {
      if (!seen.has(`${file} ${table}`)) {
        problems.push(
          `${file}: no longer imports "${table}": remove it from ${path.basename(ALLOWED_FILE)}, the list only shrinks`,
        );
      }
    }
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = [...sourceFiles(src)];
  const allowed = (JSON.parse(fs.readFileSync(ALLOWED_FILE, 'utf8')) as { imports: AllowedTableImports })
    .imports;
  const problems = [...checkBoundaries(files), ...checkTableImports(src, files, allowed)];
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} import boundary breach(es).`);
    process.exit(1);
  }
  const waiting = Object.values(allowed).reduce((sum, tables) => sum + tables.length, 0);
  console.log(
    `Import boundaries: web, server and domain apart; features apart; tables behind their owners (${waiting} old imports of another owner's table left in ${Object.keys(allowed).length} files).`,
  );
}
