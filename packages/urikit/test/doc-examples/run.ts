/**
 * Running one doc example (see harness.ts for how examples are found and
 * compiled, README.md for the convention): the exports in scope, the
 * self-checking comments as assertions, a sandbox for servers and files,
 * and the expected-failures list.
 */
import { existsSync, readFileSync } from 'node:fs';
import { Server } from 'node:net';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { compile, ROOT, type DocExample } from './harness.js';

/** The packages examples name (`import ... from 'urikit'`), each imported from its sources. */
const PACKAGES: Record<string, () => Promise<Record<string, unknown>>> = {
  urikit: () => import('urikit'),
  '@urikit/html': () => import('@urikit/html'),
  '@urikit/resolver': () => import('@urikit/resolver'),
  '@urikit/cli': () => import('@urikit/cli'),
};

/** The names of the packages examples may import. */
export const PACKAGE_NAMES: readonly string[] = Object.keys(PACKAGES);

const loaded = new Map<string, Promise<Record<string, unknown>>>();

/**
 * The exports of package `name` (one of PACKAGE_NAMES), imported when a
 * case first needs it, so that one package that does not load fails its
 * own cases and not the whole file.
 */
export function loadPackage(name: string): Promise<Record<string, unknown>> {
  let p = loaded.get(name);
  if (p === undefined) loaded.set(name, (p = PACKAGES[name]!()));
  return p;
}

/** Every package that loads, by name (the `modules` of an ExampleScope). */
export async function packageModules(): Promise<Record<string, unknown>> {
  const modules: Record<string, unknown> = {};
  for (const name of PACKAGE_NAMES) modules[name] = await loadPackage(name).catch(() => undefined);
  return modules;
}

const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<void>;

/** What an example runs with: the exports in scope and the modules its imports name. */
export interface ExampleScope {
  globals: Record<string, unknown>;
  modules: Record<string, unknown>;
  /** The working directory to run in (a scratch directory: relative files an example writes land there). */
  cwd?: string;
}

/**
 * Runs `body` in `cwd`, with servers allowed to listen on port 0 only;
 * a server the example leaves listening is closed and fails the example
 * (examples close what they start, and never take a fixed port on a
 * shared machine).
 */
async function sandboxed(where: string, cwd: string | undefined, body: () => Promise<void>): Promise<void> {
  const listen = Server.prototype.listen;
  const opened: Server[] = [];
  Server.prototype.listen = function (this: Server, ...args: unknown[]): Server {
    const first = args[0];
    const port = typeof first === 'object' && first !== null ? (first as { port?: unknown }).port : first;
    if (port !== undefined && typeof port !== 'function' && Number(port) !== 0) {
      throw new Error(`${where}: the example listens on ${String(port)}: examples listen on port 0`);
    }
    opened.push(this);
    return listen.apply(this, args as Parameters<typeof listen>);
  } as typeof listen;
  const before = process.cwd();
  if (cwd !== undefined) process.chdir(cwd);
  let failure: unknown;
  try {
    await body();
  } catch (e) {
    failure = e ?? new Error(`${where}: the example threw ${String(e)}`);
  } finally {
    Server.prototype.listen = listen;
    process.chdir(before);
  }
  const left = opened.filter((s) => s.listening);
  for (const s of left) (s as Server & { closeAllConnections?: () => void }).closeAllConnections?.();
  await Promise.all(left.map((s) => new Promise((done) => s.close(() => done(undefined)))));
  if (failure !== undefined) throw failure;
  if (left.length > 0) throw new Error(`${where}: the example left ${left.length} server(s) listening: close what it starts`);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Runs one example; resolves when every assertion held, rejects with the first that did not. */
export async function runExample(ex: DocExample, scope: ExampleScope): Promise<void> {
  if (ex.problem !== undefined) throw new Error(`${ex.file}:${ex.line}: ${ex.problem}`);
  if (ex.code.trim() === '') throw new Error(`${ex.file}:${ex.line}: the @example's code block is empty`);
  const { js, assertions } = compile(ex);
  // An example that shows a call without its result teaches nothing and checks nothing.
  if (assertions.length === 0) {
    throw new Error(`${ex.file}:${ex.line}: the example checks nothing: say what an expression gives (\`// value\`, \`// matches {...}\`, \`// throws <code>\`; README.md beside this file)`);
  }
  const logged: unknown[][] = [];
  const quiet = { ...console, log: (...a: unknown[]) => logged.push(a), info: (...a: unknown[]) => logged.push(a) };
  const names = Object.keys(scope.globals).filter((n) => IDENTIFIER.test(n));
  const values = names.map((n) => scope.globals[n]);
  // A relative import is read beside the example's own file: `../chars.js` is the source chars.ts
  // beside it, and a file with no source (`../dist/pool.js`, the build) is imported as it is.
  const relative = (spec: string): string => {
    const file = join(ROOT, dirname(ex.file), spec);
    const source = file.replace(/\.js$/, '.ts');
    return existsSync(source) ? source : file;
  };
  const importer = async (spec: string): Promise<unknown> =>
    scope.modules[spec] ?? (await import(/* @vite-ignore */ spec.startsWith('.') ? relative(spec) : spec));
  const check = async (id: number, actual: () => Promise<unknown>, expected?: () => unknown): Promise<void> => {
    const a = assertions[id]!;
    const where = `${ex.file}:${a.line}`;
    if (a.kind === 'throw') {
      let value: unknown;
      try {
        value = await actual();
      } catch (e) {
        const err = e as { name?: string; code?: unknown; offset?: unknown; constructor?: { name?: string } };
        if (a.errorName !== undefined) expect(err.constructor?.name ?? err.name, `${where}: the error's class`).toBe(a.errorName);
        if (a.code !== undefined) expect(err.code, `${where}: the error's code`).toBe(a.code);
        if (a.offset !== undefined) expect(err.offset, `${where}: the error's offset`).toBe(a.offset);
        return;
      }
      throw new Error(`${where}: expected to throw (${a.text}) but it returned ${format(value)}`);
    }
    let value: unknown;
    try {
      value = await actual();
    } catch (e) {
      throw new Error(`${where}: expected ${a.text} but it threw ${format(e)}`, { cause: e });
    }
    if (a.kind === 'match') expect(value, `${where}: // matches ${a.text}`).toMatchObject(expected!() as object);
    else expect(value, `${where}: // ${a.text}`).toEqual(expected!());
  };
  let fn: (...args: unknown[]) => Promise<void>;
  try {
    fn = new AsyncFunction(...names, '__check', '__import', 'console', `"use strict";\n{\n${js}\n}`);
  } catch (e) {
    throw new Error(`${ex.file}:${ex.line}: the example does not compile: ${String(e)}\n${js}`);
  }
  await sandboxed(`${ex.file}:${ex.line}`, scope.cwd, async () => {
    try {
      await fn(...values, check, importer, quiet);
    } catch (e) {
      if (e instanceof Error && e.message.startsWith(ex.file)) throw e;
      throw new Error(`${ex.file}:${ex.line}: the example threw ${format(e)}`, { cause: e });
    }
  });
}

function format(v: unknown): string {
  if (v instanceof Error) return `${v.name}${(v as { code?: string }).code ? ` [${(v as { code?: string }).code}]` : ''}: ${v.message}`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** One line of expected-failures.txt: a key (`<file> <export>[#n]` or `tsdoc <file> <export>`) and why. */
export interface ExpectedFailure {
  key: string;
  reason: string;
}

/** Reads expected-failures.txt: `<key>  # <reason>` per line, `#` lines and blank lines ignored. */
export function expectedFailures(): Map<string, string> {
  const text = readFileSync(new URL('./expected-failures.txt', import.meta.url), 'utf8');
  const out = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const k = line.indexOf(' # ');
    out.set((k < 0 ? line : line.slice(0, k)).trim(), k < 0 ? '' : line.slice(k + 3).trim());
  }
  return out;
}

/**
 * Runs `body` as a case that may be on the expected-failures list: listed
 * and failing passes, listed and passing fails ("remove it from the
 * list"), not listed behaves as usual.
 */
export async function withExpectedFailure(key: string, list: Map<string, string>, body: () => Promise<void> | void): Promise<void> {
  if (!list.has(key)) return body();
  try {
    await body();
  } catch {
    return;
  }
  throw new Error(`"${key}" now passes: remove it from test/doc-examples/expected-failures.txt`);
}
