/**
 * No import cycle in the source trees (DESIGN.md, "Layout": dependencies
 * point one way; the RFC 3986 core imports no profile, every profile
 * imports the core). A failure names each cycle as a path of modules.
 */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { importCycles, importGraph } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('import cycles', () => {
  it.each(['packages/urikit/src', 'packages/resolver/src', 'packages/html/src', 'packages/cli/src'])('%s has none', (dir) => {
    const cycles = importCycles(importGraph(ROOT + dir)).map((c) => c.join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('the graph finds a cycle and names it (a table of three modules)', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts', 'd.ts']], ['d.ts', []]]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(importCycles(new Map([['a.ts', ['a.ts']]]))).toEqual([['a.ts', 'a.ts']]);
    expect(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });
});
