/**
 * The import rule of DESIGN.md section 1: web -> domain, server -> domain, never web <-> server;
 * domain is pure (zod only, no I/O); features of the web app never import each other.
 * Prints each breach as file:line and exits 1 when there is one.
 */
import fs from 'node:fs';
import path from 'node:path';

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkBoundaries(sourceFiles(src));
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`\n${problems.length} import boundary breach(es).`);
    process.exit(1);
  }
  console.log('Import boundaries: web, server and domain apart; features apart.');
}
