/**
 * normalize and equivalent, one pass over the characters (src/normalizing-pass.ts),
 * against the component ladder of ./normalize-oracle.ts (parse, the steps of
 * RFC 3986 §6.2.2 and §6.2.3 on the components, serialize): the same
 * answers, errors included, on generated references and on every line of
 * the corpus (../shared/corpus, read in place).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { equivalent, normalize, type NormalizeLevel } from '../../src/normalize.js';
import { equivalentOracle, normalizeOracle } from './normalize-oracle.js';

/** The answer or the error code, so that both ways can be compared. */
function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return { error: (e as { code?: string }).code ?? String(e) };
  }
}

const SCHEMES = ['', 'http:', 'HTTP:', 'https:', 'Ws:', 'file:', 'FILE:', 'urn:', 'URN:ex:', 'ftp:', 'mailto:', 'gopher:', 'data:', 'x-foo:', 'foo:', 'tn3270:', 'news:', 'a+b.c:'];
const AUTHORITIES = ['', '', '//', '//h', '//H', '//u@h', '//U%41@h', '//u:p@h:1', '//h:', '//h:80', '//h:0080', '//H:080', '//h:21', '//h:443', '//h:00000000443', '//localhost', '//LOCALHOST', '//localhos%74', '//%31.2.3.4', '//[::1]', '//[v1.X]', '//a%2eb', '//%7E%41', '//é', '//h:8a', '//a@b@c', '//a b'];
const PATH = ['a', 'B', '/', '/', '.', '..', '%2e', '%2E', '%7e', '%7E', '%41', '%3a', '%3A', '%c3%a9', 'é', ':', '@', 'c:', '|', ';type=A', '%', '%g1', ' ', '[', '\uD800', '\uE000', '\uD83D\uDE00', ',', 'X@Y.COM'];
const TAIL = ['', '', '?', '?q', '?%7e', '?%aa', '?a=B&%41', '?\uE000', '#', '#f', '#%7e', '#\uE000', '#a#b', '?q#f'];

const reference = fc
  .tuple(fc.constantFrom(...SCHEMES), fc.constantFrom(...AUTHORITIES), fc.array(fc.constantFrom(...PATH), { maxLength: 8 }), fc.constantFrom(...TAIL))
  .map(([s, a, p, t]) => s + a + p.join('') + t);
const level = fc.constantFrom<NormalizeLevel>('syntax', 'scheme');

describe('one pass = the component ladder', () => {
  it('normalize, on generated references (valid and not)', () => {
    fc.assert(fc.property(reference, level, (s, l) => {
      expect(outcome(() => normalize(s, { level: l }))).toEqual(outcome(() => normalizeOracle(s, { level: l })));
    }), { numRuns: 20000 });
  });

  it('equivalent, on generated pairs', () => {
    fc.assert(fc.property(reference, reference, level, fc.boolean(), (a, b, l, ignoreFragment) => {
      expect(outcome(() => equivalent(a, b, { level: l, ignoreFragment }))).toEqual(outcome(() => equivalentOracle(a, b, { level: l, ignoreFragment })));
    }), { numRuns: 10000 });
  });

  it('equivalent, on a reference and the same with its scheme and host in upper case', () => {
    fc.assert(fc.property(reference, level, (a, l) => {
      const b = a.replace(/^([^/?#]*:)?(\/\/[^/?#]*)?/, (m) => m.toUpperCase());
      expect(outcome(() => equivalent(a, b, { level: l }))).toEqual(outcome(() => equivalentOracle(a, b, { level: l })));
    }), { numRuns: 5000 });
  });

  it('normalize and equivalent on every line of the corpus', () => {
    const dir = new URL('../../../../../shared/corpus/', import.meta.url);
    const lines = ['kasztp.txt', 'node_files.txt', 'isaacs_files.txt'].flatMap((f) => readFileSync(new URL(f, dir), 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/)).filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(90000);
    const differ: string[] = [];
    const same = (what: string, fast: () => unknown, slow: () => unknown): void => {
      if (JSON.stringify(outcome(fast)) !== JSON.stringify(outcome(slow))) differ.push(what);
    };
    for (const s of lines) {
      for (const l of ['syntax', 'scheme'] as const) same(`normalize ${s} ${l}`, () => normalize(s, { level: l }), () => normalizeOracle(s, { level: l }));
      const upper = s.replace(/^([^/?#]*:)?(\/\/[^/?#]*)?/, (m) => m.toUpperCase());
      same(`equivalent ${s} ${upper}`, () => equivalent(s, upper), () => equivalentOracle(s, upper));
    }
    expect(differ.slice(0, 10)).toEqual([]);
  });
});
