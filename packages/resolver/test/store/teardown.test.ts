/**
 * The SQLite engine survives the end of a process: stores and statements
 * opened, used and dropped under memory pressure with forced collections,
 * in the main thread and in worker threads torn down while they work,
 * then the process ends with statements still alive (teardown-child.ts).
 * Each run is a separate process, under the Node that runs the suite
 * (`.ci/run` runs the suite on every supported version); a clean exit code
 * and no native assertion are required. better-sqlite3 12 aborted this
 * way on Node 24 (docs/architecture.md, "The SQLite engine").
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bundledScript } from '../helpers/child.js';

/** Runs the child once; resolves to its exit code, signal and output. */
async function runChild(mode: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const script = await bundledScript('packages/resolver/test/store/teardown-child.ts');
  const proc = spawn(process.execPath, ['--expose-gc', script, mode, '40'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  proc.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

describe(`SQLite teardown under Node ${process.version}`, () => {
  for (const mode of ['exit', 'drain', 'close']) {
    it(`ends cleanly: ${mode}`, async () => {
      const r = await runChild(mode);
      expect(r.stderr).not.toMatch(/Assertion failed|Segmentation fault|FATAL ERROR/);
      expect({ code: r.code, signal: r.signal }, r.stderr).toEqual({ code: 0, signal: null });
      expect(r.stdout).toContain(`teardown ok (${mode}`);
    }, 120_000);
  }
});
