/**
 * The core's own test tables (tables.js: parse, resolve, normalize,
 * equivalent, hosts, IDNA, IRIs, URNs, extraction) on the bundled core in
 * Deno, Bun and headless Chromium (DESIGN.md: the core "runs unchanged in
 * Node and browsers"), compared with the same run in Node: every case
 * passes, each table has Node's number of cases, and where a runtime gives
 * another answer, differences.json says how and why and a test checks it.
 * A runtime that cannot run here is reported loudly, never passed over.
 * The summary reporter prints one line per runtime (`tests on Deno 2.x: …`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { browser, bun, deno, node, prepareRunDirectory, type RunResult, type Runtime, type TableResult } from './harness.js';
import { TABLE_FILES } from './tables.js';
import listed from './differences.json' with { type: 'json' };

declare module 'vitest' {
  interface TaskMeta {
    /** What the summary reporter prints for a runtime: its counts, or why it did not run. */
    runtimeTables?: { runtime: string; passed?: number; failed?: number; differ?: number; notRun?: string };
  }
}

/** How long one runtime may take over all the tables (seconds here; more on a busy machine). */
const RUN_TIMEOUT = 300_000;
const TEST_DIR = fileURLToPath(new URL('../', import.meta.url));

const dir = await prepareRunDirectory();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let baseline: Promise<RunResult> | undefined;
/** The tables in Node on the same bundle: what every other runtime is compared with. */
const inNode = (): Promise<RunResult> => (baseline ??= node.run(dir));

const failedCases = (t: TableResult): string[] => t.failures.map((f) => f.case);

/** Data files under packages/urikit/test that tables.js does not read, and why. */
const NOT_TABLES: Record<string, string> = {
  'bundle/budget.json': 'the size of the bundle, which esbuild measures in Node',
  'doc-examples/convention.json': 'the harness of the documentation examples, which reads files and runs TypeScript in Node',
};

describe('the tables in Node on the bundled core (the baseline)', () => {
  it('reads every data file of the core\'s tests but those that are about Node itself', () => {
    const data = readdirSync(TEST_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json') && !f.startsWith('runtimes/')).sort();
    expect(data.filter((f) => !TABLE_FILES.includes(f) && !(f in NOT_TABLES))).toEqual([]);
  });

  it('every case of every table passes, as in the vitest tests that read the same data', async () => {
    const result = await inNode();
    expect(result.runtime).toBe(`Node ${process.version}`);
    expect(result.tables.filter((t) => t.failed > 0)).toEqual([]);
    for (const t of result.tables) expect(t.cases, t.name).toBeGreaterThan(0);
  }, RUN_TIMEOUT);
});

for (const runtime of [deno, bun, browser] as Runtime[]) {
  const differences = listed.differences.filter((d) => d.runtimes.includes(runtime.name));
  if (runtime.problem !== undefined) {
    console.warn(['', '#'.repeat(78), `#  THE CORE'S TABLES CANNOT RUN IN ${runtime.name.toUpperCase()} HERE`, `#  (${runtime.problem})`, `#  Its tests in runtimes.test.ts are SKIPPED.`, '#'.repeat(78), ''].join('\n'));
  }
  const title = `the tables in ${runtime.name} on the bundled core${runtime.problem === undefined ? '' : ` (SKIPPED: ${runtime.problem})`}`;
  describe.skipIf(runtime.problem !== undefined)(title, () => {
    let result: RunResult;
    beforeAll(async () => {
      result = await runtime.run(dir);
    }, RUN_TIMEOUT);

    it(`every case passes in ${runtime.name} but the differences from Node listed in differences.json`, { meta: { runtimeTables: { runtime: runtime.name, notRun: runtime.problem } } }, ({ task }) => {
      let passed = 0;
      let failed = 0;
      let differ = 0;
      const unexpected: string[] = [];
      const nowPassing: string[] = [];
      for (const t of result.tables) {
        const expected = new Set(differences.filter((d) => d.table === t.name).flatMap((d) => d.cases));
        const failing = failedCases(t);
        const listedFailing = failing.filter((c) => expected.has(c));
        unexpected.push(...t.failures.filter((f) => !expected.has(f.case)).map((f) => `${t.name} > ${f.case}: ${f.message}`));
        if (t.failed > t.failures.length) unexpected.push(`${t.name}: ${t.failed - t.failures.length} more failures`);
        nowPassing.push(...[...expected].filter((c) => !failing.includes(c)).map((c) => `${t.name} > ${c}`));
        passed += t.cases - t.failed;
        differ += listedFailing.length;
        failed += t.failed - listedFailing.length;
      }
      failed += nowPassing.length;
      task.meta.runtimeTables = { runtime: result.runtime, passed, failed, differ };
      expect(unexpected, 'failing cases that differences.json does not list').toEqual([]);
      expect(nowPassing, 'listed in differences.json but passing: remove them').toEqual([]);
    });

    it('runs the same tables with as many cases as Node', async () => {
      const count = (r: RunResult): Array<[string, number]> => r.tables.map((t) => [t.name, t.cases]);
      expect(count(result)).toEqual(count(await inNode()));
    }, RUN_TIMEOUT);

    for (const d of differences) {
      it(`differs from Node: ${d.how}; because ${d.why}`, async () => {
        const here = result.tables.find((t) => t.name === d.table);
        const there = (await inNode()).tables.find((t) => t.name === d.table);
        expect(here, d.table).toBeDefined();
        expect(failedCases(here!).filter((c) => d.cases.includes(c))).toEqual(d.cases);
        expect(failedCases(there!).filter((c) => d.cases.includes(c)), 'in Node these pass').toEqual([]);
      }, RUN_TIMEOUT);
    }
  });
}
