/**
 * No import cycles in src (server, domain, web), type-only imports included: a cycle through
 * types alone still ties two files together, and a runtime one can leave a binding undefined at
 * load time. Imports are read and resolved with the TypeScript compiler (tsconfig.json's options),
 * so `import type`, `export … from`, `import()` and `import('…')` types all count.
 * Prints each cycle as a chain of files and exits 1 when there is one.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');

/** Which files import which: every key is a file, its values the files it imports. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** A group of files that import each other, and one cycle among them to show. */
export interface Cycle {
  /** From a file back to itself through its imports, the first file repeated at the end. */
  chain: string[];
  /** Every file of the group (its strongly connected component), sorted. */
  files: string[];
}

/**
 * One cycle for each group of files that reach each other through their imports (a strongly
 * connected component), shown by its shortest cycle through the group's first file: breaking that
 * import and running again shows the group's next cycle, if any.
 */
export function findCycles(graph: ImportGraph): Cycle[] {
  const cycles: Cycle[] = [];
  for (const group of stronglyConnected(graph)) {
    const files = [...group].sort();
    const [start] = files;
    if (start === undefined) continue;
    const selfLoop = (graph.get(start) ?? []).includes(start);
    if (files.length === 1 && !selfLoop) continue;
    cycles.push({ chain: shortestCycleThrough(graph, start, group), files });
  }
  return cycles.sort((a, b) => (a.files[0] ?? '').localeCompare(b.files[0] ?? ''));
}

/** Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack. */
function stronglyConnected(graph: ImportGraph): Set<string>[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: Set<string>[] = [];
  let next = 0;
  for (const origin of graph.keys()) {
    if (index.has(origin)) continue;
    const work: { node: string; edge: number }[] = [{ node: origin, edge: 0 }];
    index.set(origin, next);
    low.set(origin, next);
    next += 1;
    stack.push(origin);
    onStack.add(origin);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge] as string;
        frame.edge += 1;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next);
          next += 1;
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group = new Set<string>();
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          group.add(member);
        } while (member !== frame.node);
        groups.push(group);
      }
    }
  }
  return groups;
}

/** Breadth-first from start back to start, staying inside its group. */
function shortestCycleThrough(graph: ImportGraph, start: string, group: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const node = queue[at] as string;
    for (const target of graph.get(node) ?? []) {
      if (!group.has(target)) continue;
      if (target === start) {
        const chain = [node];
        for (let back = cameFrom.get(node); back !== undefined; back = cameFrom.get(back)) chain.push(back);
        return [...chain.reverse(), start];
      }
      if (!cameFrom.has(target) && target !== start) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Every module specifier a file names: imports, re-exports, `import()` and `import('…')` types. */
export function specifiersOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      specifiers.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** The import graph of src, keeping only imports that resolve to another file of src. */
export function importGraphOf(dir: string): Map<string, string[]> {
  const configFile = ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root).options;
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const targets = new Set<string>();
    for (const specifier of specifiersOf(file, fs.readFileSync(file, 'utf8'))) {
      const resolved = ts.resolveModuleName(specifier, file, options, host, cache).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) continue;
      const target = path.resolve(resolved.resolvedFileName);
      if (target.startsWith(dir + path.sep) && !target.endsWith('.d.ts')) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The listing printed for the cycles found: each as its chain of files, relative to `base`. */
export function describeCycles(cycles: readonly Cycle[], base: string): string {
  const relative = (file: string) => path.relative(base, file);
  const listings = cycles.map(({ chain, files }) => {
    const group =
      files.length > chain.length - 1
        ? `\n  (one cycle of ${files.length} files that import each other: ${files.map(relative).join(', ')})`
        : '';
    return `Import cycle:\n  ${chain.map(relative).join('\n  -> ')}${group}\n`;
  });
  return `${listings.join('\n')}\n${cycles.length} import cycle(s) in src (type-only imports included).`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const graph = importGraphOf(src);
  const cycles = findCycles(graph);
  if (cycles.length > 0) {
    console.error(describeCycles(cycles, root));
    process.exit(1);
  }
  console.log(`Import cycles: none among ${graph.size} files of src (type-only imports included).`);
}
