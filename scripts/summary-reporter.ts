/**
 * A vitest reporter that ends the run with one plain line,
 * `tests: N passed, N failed, N skipped on Node vX.Y.Z`, so that CI and people reading a
 * log see the count without parsing vitest's coloured summary, then a line
 * per other runtime the core's tables ran in (`tests on Deno 2.9.6: …`). Skipped
 * tests are counted, never hidden: a suite that cannot run here (no
 * PostgreSQL, no Chromium) says so in its name and shows up in this count.
 */
import type { Reporter, TestModule } from 'vitest/node';

/** What packages/urikit/test/runtimes/runtimes.test.ts leaves in a test's meta for a runtime. */
interface RuntimeTables { runtime: string; passed?: number; failed?: number; differ?: number; notRun?: string }

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedNames: string[] = [];
    // A file or suite that failed outside its tests (in beforeAll, or while
    // loading) counts as one failure: its tests are only reported skipped.
    const brokenNames: string[] = [];
    for (const module of testModules) {
      const file = module.moduleId.replace(process.cwd() + '/', '');
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          skippedNames.push(`${file} > ${test.fullName}`);
        }
      }
      const noTests = [...module.children.allTests()].length === 0;
      if (module.errors().length > 0 || (module.state() === 'failed' && noTests)) brokenNames.push(file);
      for (const suite of module.children.allSuites()) {
        if (suite.errors().length > 0) brokenNames.push(`${file} > ${suite.fullName}`);
      }
    }
    failed += brokenNames.length + unhandledErrors.length;
    if (skippedNames.length > 0) {
      console.log(`\nSkipped (${skippedNames.length}):`);
      for (const name of skippedNames.slice(0, 50)) console.log(`  - ${name}`);
      if (skippedNames.length > 50) console.log(`  ... and ${skippedNames.length - 50} more`);
    }
    if (brokenNames.length > 0) {
      console.log(`\nFailed outside a test (${brokenNames.length}; each counted as one failure):`);
      for (const name of brokenNames) console.log(`  - ${name}`);
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped on Node ${process.version}`);
    for (const line of runtimeLines(testModules)) console.log(line);
  }
}

/**
 * One line per other JavaScript runtime the core's tables ran in
 * (packages/urikit/test/runtimes), from what its test left in `meta`:
 * `tests on Deno 2.9.6: N passed, 0 failed`, with the cases that differ from
 * Node as listed, or why the runtime did not run.
 */
function runtimeLines(testModules: ReadonlyArray<TestModule>): string[] {
  const lines: string[] = [];
  for (const module of testModules) {
    for (const test of module.children.allTests()) {
      const r = (test.meta() as { runtimeTables?: RuntimeTables }).runtimeTables;
      if (r === undefined) continue;
      if (r.passed !== undefined) {
        const differ = r.differ ? `, ${r.differ} differ from Node as listed in differences.json` : '';
        lines.push(`tests on ${r.runtime}: ${r.passed} passed, ${r.failed ?? 0} failed${differ}`);
      } else if (r.notRun !== undefined) {
        lines.push(`tests on ${r.runtime}: NOT RUN (${r.notRun})`);
      } else {
        lines.push(`tests on ${r.runtime}: did not finish (${test.result().state}; see its failure above)`);
      }
    }
  }
  return lines;
}
