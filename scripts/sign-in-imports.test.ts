import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');

/** Static value imports only: `import type`, `export type` and `import('…')` load nothing up front. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;

function resolveLocal(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  return null;
}

/** The packages the sign-in page's code loads: every file reached from the entry by static imports. */
function packagesLoadedBy(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier = ''] of fs.readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      if (specifier.startsWith('.')) {
        const next = resolveLocal(file, specifier);
        if (next) queue.push(next);
      } else if (!packages.has(specifier)) packages.set(specifier, path.relative(root, file));
    }
  }
  return packages;
}

describe('the sign-in page', () => {
  // DESIGN.md section 10: its JavaScript stays within 150 kB; zod alone is about 25 kB of it, and
  // the sign-in page validates nothing with it (a schema in a module it imports came back twice).
  it('loads no zod', () => {
    const packages = packagesLoadedBy(path.join(root, 'src/web/main.tsx'));
    expect(packages.size).toBeGreaterThan(3);
    expect(packages.get('zod'), 'imported by').toBeUndefined();
  });
});

describe("the back office's frame and home page", () => {
  // Lighthouse on a phone (issue 24): zod was two thirds of the file the frame loads with it,
  // reached through one constant (the staff session's idle time) and one sentence.
  it('load no zod', () => {
    for (const entry of [
      'src/web/app/staff-layout.tsx',
      'src/web/features/staff/components/staff-home-page.tsx',
    ]) {
      const packages = packagesLoadedBy(path.join(root, entry));
      expect(packages.size, entry).toBeGreaterThan(3);
      expect(packages.get('zod'), `${entry}: imported by`).toBeUndefined();
    }
  });
});
