/**
 * The shape of packages/resolver/src/server (docs/architecture.md, "The
 * resolution service"): sub-folders that show a request's path, no
 * import cycle, and no import running back up the path
 *
 *   http/ (the request read) → resolution/query.ts (the query, with target.ts)
 *     → resolution/subject.ts (the store's answer about the name)
 *     → resolution/answer-table.ts (status, reason, headers, formats)
 *     → render/ (the bodies) → render/wire.ts (bytes out, the header budget)
 *
 * A module may import one at its own step or further down the path, never
 * one before it; the modules that put the steps together (resolve.ts,
 * respond.ts and the other modules of resolution/) stand at the query's
 * step. The path's modules never import the admin API or the modules that
 * assemble the server, but for the metrics they count into.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/server');

/** The step of the path of each module (by path from server/, a folder's default after it). */
const STEPS: ReadonlyArray<[string, number]> = [
  ['http/', 0],
  ['resolution/subject.ts', 2],
  ['resolution/answer-table.ts', 3],
  ['resolution/', 1],
  ['render/wire.ts', 5],
  ['render/', 4],
];
/** Modules outside the path that the path may import. */
const SHARED_WITH_THE_PATH = new Set(['metrics.ts']);

const stepOf = (file: string): number | undefined => STEPS.find(([prefix]) => file === prefix || file.startsWith(prefix))?.[1];

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return modules(path);
    return name.endsWith('.ts') ? [relative(SERVER, path)] : [];
  });
}

/** The modules of server/ each module imports (relative imports that stay in server/). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of modules(SERVER)) {
    const text = readFileSync(join(SERVER, file), 'utf8');
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)\.js'/g)]
      .map((m) => relative(SERVER, resolve(SERVER, dirname(file), `${m[1]}.ts`)))
      .filter((t) => !t.startsWith('..'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, as a list of modules. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (m: string): void => {
    state.set(m, 'open');
    stack.push(m);
    for (const t of graph.get(m) ?? []) {
      if (state.get(t) === 'open') found.push([...stack.slice(stack.indexOf(t)), t]);
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(m, 'done');
  };
  for (const m of graph.keys()) if (!state.has(m)) visit(m);
  return found;
}

describe('the import graph of server/', () => {
  const graph = importGraph();

  it('has the sub-folders of the path and of the admin API', () => {
    const folders = new Set([...graph.keys()].filter((f) => f.includes('/')).map((f) => f.split('/')[0]));
    expect([...folders].sort()).toEqual(['admin', 'http', 'render', 'resolution']);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('has no import running back up the path, and none from the path to the admin API or the assembly', () => {
    const wrong: string[] = [];
    for (const [from, targets] of graph) {
      const a = stepOf(from);
      if (a === undefined) continue;
      for (const to of targets) {
        const b = stepOf(to);
        if (b === undefined ? !SHARED_WITH_THE_PATH.has(to) : b < a) wrong.push(`${from} -> ${to}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('knows every module of the path by its step (a new folder is placed on the path here)', () => {
    const unplaced = [...graph.keys()].filter((f) => f.includes('/') && !f.startsWith('admin/') && stepOf(f) === undefined);
    expect(unplaced).toEqual([]);
  });
});
