/**
 * The web app imports Mantine's styles one component at a time (src/web/app/styles/), so a
 * component used without its stylesheet would render unstyled. This follows each Mantine component
 * the web app imports through Mantine's own module graph (Select pulls Combobox, Menu pulls
 * Popover) and lists every stylesheet it needs that neither styles file imports.
 * Prints each gap and exits 1 when there is one.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'src/web');
const stylesDir = path.join(webDir, 'app/styles');
const packages = {
  core: path.join(root, 'node_modules/@mantine/core'),
  dates: path.join(root, 'node_modules/@mantine/dates'),
} as const;
type MantinePackage = keyof typeof packages;

const NAMED_IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]@mantine\/(core|dates)['"]/g;
const RELATIVE_IMPORT = /(?:import|export)\s[^'"]*?from\s*"(\.[^"]+)"/g;
const CSS_IMPORT = /import\s+['"](@mantine\/[^'"]+\.css)['"]/g;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) yield full;
  }
}

function namedImports(text: string): { pkg: MantinePackage; name: string }[] {
  const found: { pkg: MantinePackage; name: string }[] = [];
  for (const match of text.matchAll(NAMED_IMPORT)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name =
        part
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      if (name && !name.startsWith('type ')) found.push({ pkg: match[2] as MantinePackage, name });
    }
  }
  return found;
}

/** Where a package's index module takes each exported name from. */
function exportMap(pkg: MantinePackage): Map<string, string> {
  const esm = path.join(packages[pkg], 'esm');
  const index = fs.readFileSync(path.join(esm, 'index.mjs'), 'utf8');
  const map = new Map<string, string>();
  for (const match of index.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)) {
    for (const part of (match[1] ?? '').split(',')) {
      const name = part
        .trim()
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) map.set(name, path.join(esm, match[2] ?? ''));
    }
  }
  return map;
}

/** The stylesheets a set of Mantine exports needs: each `X.module.mjs` reached means `styles/X.css`. */
export function requiredStylesheets(uses: { pkg: MantinePackage; name: string }[]): Set<string> {
  const exports = { core: exportMap('core'), dates: exportMap('dates') };
  const needed = new Set<string>();
  const seen = new Set<string>();
  const queue: { pkg: MantinePackage; file: string }[] = [];
  const enqueueExport = (pkg: MantinePackage, name: string) => {
    const file = exports[pkg].get(name);
    if (file) queue.push({ pkg, file });
  };
  for (const use of uses) enqueueExport(use.pkg, use.name);
  while (queue.length > 0) {
    const next = queue.pop();
    if (!next || seen.has(next.file)) continue;
    seen.add(next.file);
    const text = fs.readFileSync(next.file, 'utf8');
    const moduleName = path.basename(next.file).match(/^(.+)\.module\.mjs$/)?.[1];
    if (moduleName) {
      if (next.pkg === 'core' && fs.existsSync(path.join(packages.core, 'styles', `${moduleName}.css`)))
        needed.add(`@mantine/core/styles/${moduleName}.css`);
      if (next.pkg === 'dates') needed.add('@mantine/dates/styles.css');
    }
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      queue.push({ pkg: next.pkg, file: path.resolve(path.dirname(next.file), match[1] ?? '') });
    }
    // @mantine/dates builds on @mantine/core by its package name.
    for (const use of namedImports(text.replaceAll('"', "'"))) enqueueExport(use.pkg, use.name);
  }
  return needed;
}

export function missingStylesheets(): string[] {
  const uses = [...sourceFiles(webDir)].flatMap((file) => namedImports(fs.readFileSync(file, 'utf8')));
  const imported = new Set<string>();
  for (const file of fs.readdirSync(stylesDir)) {
    const text = fs.readFileSync(path.join(stylesDir, file), 'utf8');
    for (const match of text.matchAll(CSS_IMPORT)) imported.add(match[1] ?? '');
  }
  return [...requiredStylesheets(uses)].filter((sheet) => !imported.has(sheet)).sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const missing = missingStylesheets();
  for (const sheet of missing) {
    console.error(`src/web/app/styles: a component in use needs ${sheet}, which no styles file imports`);
  }
  process.exit(missing.length > 0 ? 1 : 0);
}
