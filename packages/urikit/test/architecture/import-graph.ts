/**
 * The import graph of a source tree and its cycles (DESIGN.md, "Layout":
 * dependencies point one way). Every `import`, `export ... from` and
 * `import()` of a relative module counts, type-only ones too: a cycle of
 * types is still a cycle to a reader.
 */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The `.ts` files under `dir`, as paths relative to it. */
function sourceFiles(dir: string, sub = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, sub)).sort()) {
    const rel = sub === '' ? name : `${sub}/${name}`;
    if (statSync(join(dir, rel)).isDirectory()) out.push(...sourceFiles(dir, rel));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** The file a relative specifier names (`./x.js` is `./x.ts`, `./dir` is `./dir/index.ts`), or undefined. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * The modules of `dir` (paths relative to it) and, for each, the modules of
 * `dir` it imports.
 */
export function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const path = join(dir, file);
    const info = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
    const edges = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveSpecifier(path, fileName);
      if (target !== undefined && !relative(dir, target).startsWith('..')) edges.add(relative(dir, target));
    }
    graph.set(file, [...edges].sort());
  }
  return graph;
}

/**
 * The graph of the folders of a tree: `client/http.ts` importing
 * `web/page.ts` is an edge client -> web; a module at the root of the
 * tree is in the folder `.`. Imports inside one folder are not edges.
 */
export function folderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const folder = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '.');
  const folders = new Map<string, Set<string>>();
  for (const [file, imports] of graph) {
    const from = folder(file);
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of imports) if (folder(target) !== from) edges.add(folder(target));
  }
  return new Map([...folders].map(([f, edges]) => [f, [...edges].sort()]));
}

/**
 * Every cycle of `graph`, one per strongly connected component (Tarjan),
 * each named by a path through it that returns to its start:
 * `['a.ts', 'b.ts', 'a.ts']`.
 */
export function importCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(scc);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components.map((scc) => cycleThrough(graph, new Set(scc)));
}

/** A shortest path from the first module of `scc` (in name order) back to itself, within `scc`. */
function cycleThrough(graph: Map<string, string[]>, scc: Set<string>): string[] {
  const start = [...scc].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let k = 0; k < queue.length; k++) {
    const v = queue[k]!;
    for (const w of graph.get(v) ?? []) {
      if (!scc.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u: string | undefined = v; u !== undefined && u !== start; u = previous.get(u)) path.splice(1, 0, u);
        path.push(start);
        return path;
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
