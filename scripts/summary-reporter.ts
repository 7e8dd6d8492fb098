/**
 * A vitest reporter that ends the run with one plain line,
 * `tests: N passed, N failed, N skipped on Node vX.Y.Z`, so that CI and people reading a
 * log see the count without parsing vitest's coloured summary. Skipped
 * tests are counted, never hidden: a suite that cannot run here (no
 * PostgreSQL, no Chromium) says so in its name and shows up in this count.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const skippedNames: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          skippedNames.push(`${module.moduleId.replace(process.cwd() + '/', '')} > ${test.fullName}`);
        }
      }
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    failed += unhandledErrors.length;
    if (skippedNames.length > 0) {
      console.log(`\nSkipped (${skippedNames.length}):`);
      for (const name of skippedNames.slice(0, 50)) console.log(`  - ${name}`);
      if (skippedNames.length > 50) console.log(`  ... and ${skippedNames.length - 50} more`);
    }
    console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped on Node ${process.version}`);
  }
}
