import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeCycles, findCycles, importGraphOf, specifiersOf } from './check-cycles';

function graph(edges: Record<string, string[]>) {
  return new Map(Object.entries(edges));
}

describe('findCycles', () => {
  it('finds none in a tree of imports, however shared', () => {
    expect(findCycles(graph({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });

  it('finds two files that import each other', () => {
    expect(findCycles(graph({ a: ['b'], b: ['a'], c: ['a'] }))).toEqual([
      { chain: ['a', 'b', 'a'], files: ['a', 'b'] },
    ]);
  });

  it('finds a file that imports itself', () => {
    expect(findCycles(graph({ a: ['a'], b: ['a'] }))).toEqual([{ chain: ['a', 'a'], files: ['a'] }]);
  });

  it('shows a long cycle by its shortest chain and names every file of the group', () => {
    const cycles = findCycles(graph({ a: ['b'], b: ['c', 'a'], c: ['d'], d: ['a'], e: ['d'] }));
    expect(cycles).toEqual([{ chain: ['a', 'b', 'a'], files: ['a', 'b', 'c', 'd'] }]);
  });

  it('reports each separate group once', () => {
    const cycles = findCycles(graph({ a: ['b'], b: ['a'], x: ['y'], y: ['z'], z: ['x'] }));
    expect(cycles.map((cycle) => cycle.chain)).toEqual([
      ['a', 'b', 'a'],
      ['x', 'y', 'z', 'x'],
    ]);
  });
});

describe('specifiersOf', () => {
  it('counts type-only imports, re-exports, import() and import types', () => {
    const text = [
      "import type { A } from './a';",
      "import { type B } from './b';",
      "import './c';",
      "export { D } from './d';",
      "export type * from './e';",
      "const f = () => import('./f');",
      "let g: import('./g').G;",
      "import h = require('./h');",
      "import { z } from 'zod';",
    ].join('\n');
    expect(specifiersOf('x.ts', text)).toEqual([
      './a',
      './b',
      './c',
      './d',
      './e',
      './f',
      './g',
      './h',
      'zod',
    ]);
  });
});

describe('importGraphOf and describeCycles, on files written to disk', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-cycles-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('fails a cycle made of a type-only import and lists its chain of files', () => {
    fs.mkdirSync(path.join(dir, 'server/modules'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'server/app.ts'),
      "import { routes } from './modules/routes';\nexport interface AppDeps { db: string }\nexport const app = routes;\n",
    );
    fs.writeFileSync(
      path.join(dir, 'server/modules/routes.ts'),
      "import type { AppDeps } from '../app';\nimport { z } from 'zod';\nexport const routes = (deps: AppDeps) => z.string().parse(deps.db);\n",
    );
    fs.writeFileSync(
      path.join(dir, 'server/server.ts'),
      "import { app } from './app';\nexport default app;\n",
    );

    const cycles = findCycles(importGraphOf(dir));

    expect(describeCycles(cycles, dir)).toBe(
      [
        'Import cycle:',
        '  server/app.ts',
        '  -> server/modules/routes.ts',
        '  -> server/app.ts',
        '',
        '1 import cycle(s) in src (type-only imports included).',
      ].join('\n'),
    );
  });

  it('passes once the shared type lives in a file of its own', () => {
    fs.writeFileSync(path.join(dir, 'server/app-deps.ts'), 'export interface AppDeps { db: string }\n');
    fs.writeFileSync(
      path.join(dir, 'server/modules/routes.ts'),
      "import type { AppDeps } from '../app-deps';\nexport const routes = (deps: AppDeps) => deps.db;\n",
    );

    expect(findCycles(importGraphOf(dir))).toEqual([]);
  });
});
