/**
 * Every command of the real binary, from a table (commands.json): output,
 * --json shape and exit status. Each command's --help is checked too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import table from './commands.json' with { type: 'json' };
import { records, requireBuilt, run } from './run.js';

interface Case {
  name: string;
  ref: string;
  args: string[];
  stdin?: string;
  exit: number;
  stdout?: string;
  stdoutIncludes?: string;
  stderrIncludes?: string;
  stdoutLines?: string[];
  stderrLines?: string[];
  json?: unknown[];
}

/**
 * True when `actual` has everything `expected` has: objects by key,
 * arrays element by element in order and of the same length, except that
 * an expected array inside a record only needs each of its elements to
 * match some element of the actual array (lint findings, in any order).
 */
function contains(actual: unknown, expected: unknown, nested = false): boolean {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return false;
    if (expected.length === 0) return actual.length === 0;
    if (!nested) return actual.length === expected.length && expected.every((e, i) => contains(actual[i], e, true));
    return expected.every((e) => actual.some((a) => contains(a, e, true)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object') return false;
    return Object.entries(expected).every(([k, v]) => contains((actual as Record<string, unknown>)[k], v, true));
  }
  return Object.is(actual, expected);
}

/** Each pattern matches one output line, in order (the output may have no other lines). */
function linesMatch(text: string, patterns: string[]): boolean {
  const lines = text.split('\n').filter((l) => l !== '');
  return lines.length === patterns.length && patterns.every((p, i) => new RegExp(p).test(lines[i]!));
}

beforeAll(() => requireBuilt());

describe(`urikit commands (${table.source.slice(0, 60)}...)`, () => {
  for (const c of table.cases as Case[]) {
    it(`${c.name} [${c.ref}]`, async () => {
      const r = await run(c.args, c.stdin);
      const context = `urikit ${c.args.join(' ')}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
      expect(r.code, context).toBe(c.exit);
      if (c.stdout !== undefined) expect(r.stdout, context).toBe(c.stdout);
      if (c.stdoutIncludes !== undefined) expect(r.stdout, context).toContain(c.stdoutIncludes);
      if (c.stderrIncludes !== undefined) expect(r.stderr, context).toContain(c.stderrIncludes);
      if (c.stdoutLines) expect(linesMatch(r.stdout, c.stdoutLines), context).toBe(true);
      if (c.stderrLines) expect(linesMatch(r.stderr, c.stderrLines), context).toBe(true);
      if (c.json) {
        const got = records(r.stdout);
        expect(contains(got, c.json), `${context}\nexpected to contain ${JSON.stringify(c.json)}`).toBe(true);
      }
    });
  }
});

const COMMAND_NAMES = ['parse', 'validate', 'resolve', 'normalize', 'compare', 'extract', 'lint', 'host', 'urn', 'serve', 'gateway', 'resolve-urn', 'crawl', 'import', 'token', 'links', 'harvest', 'handover'];

describe('--help', () => {
  it('the overview lists every command', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const name of COMMAND_NAMES) expect(r.stdout).toContain(`\n  ${name} `);
  });
  for (const name of COMMAND_NAMES) {
    it(`urikit ${name} --help has usage, options and examples, exit 0`, async () => {
      const r = await run([name, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(`urikit ${name}`);
      expect(r.stdout).toContain('Options:');
      expect(r.stdout).toContain('--json');
      const examples = r.stdout.split('Examples:\n')[1] ?? '';
      expect(examples.split('\n').filter((l) => l.includes(`urikit ${name}`)).length).toBeGreaterThan(0);
      // The same text as "urikit help <name>".
      expect((await run(['help', name])).stdout).toBe(r.stdout);
    });
  }
});
