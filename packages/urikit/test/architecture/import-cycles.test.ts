/**
 * No import cycle in the source trees (DESIGN.md, "Layout": dependencies
 * point one way; the RFC 3986 core imports no profile, every profile
 * imports the core). A failure names each cycle as a path of modules.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { folderGraph, importCycles, importGraph } from './import-graph.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('import cycles', () => {
  it.each(['packages/urikit/src', 'packages/resolver/src', 'packages/html/src', 'packages/cli/src'])('%s has none', (dir) => {
    const cycles = importCycles(importGraph(ROOT + dir)).map((c) => c.join(' -> '));
    expect(cycles).toEqual([]);
  });

  // The resolver's folders are its layers (store, formats, server, client, web, ...):
  // a cycle between two of them (client <-> web, store <-> formats) is one
  // even when no two modules import each other.
  it.each(['packages/resolver/src'])('the folders of %s import each other in no cycle', (dir) => {
    const graph = folderGraph(importGraph(ROOT + dir));
    expect(graph.size).toBeGreaterThan(1);
    expect(importCycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('the folder graph turns a cycle between folders into one (client <-> web through different modules)', () => {
    const graph = new Map([['client/a.ts', ['web/b.ts']], ['web/b.ts', []], ['web/c.ts', ['client/d.ts']], ['client/d.ts', []], ['index.ts', ['client/a.ts']]]);
    expect(importCycles(graph)).toEqual([]);
    expect(folderGraph(graph)).toEqual(new Map([['client', ['web']], ['web', ['client']], ['.', ['client']]]));
    expect(importCycles(folderGraph(graph))).toEqual([['client', 'web', 'client']]);
  });

  // STYLE §4: one module per concept, about 400 lines at most.
  it.each(['packages/resolver/src'])('no module of %s is over 400 lines', (dir) => {
    const long = [...importGraph(ROOT + dir).keys()]
      .map((file) => ({ file, lines: readFileSync(`${ROOT}${dir}/${file}`, 'utf8').split('\n').length - 1 }))
      .filter((m) => m.lines > 400);
    expect(long).toEqual([]);
  });

  it('the graph finds a cycle and names it (a table of three modules)', () => {
    const graph = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts', 'd.ts']], ['d.ts', []]]);
    expect(importCycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
    expect(importCycles(new Map([['a.ts', ['a.ts']]]))).toEqual([['a.ts', 'a.ts']]);
    expect(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).toEqual([]);
  });
});
