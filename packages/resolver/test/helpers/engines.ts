/**
 * The two storage engines every resolver test runs on: SQLite (always)
 * and PostgreSQL at env URIKIT_TEST_PG (default
 * postgres://postgres@127.0.0.1:5432/test), each test file in a schema of
 * its own so that files running in parallel do not collide. When
 * PostgreSQL cannot be reached the suite says so loudly and reports the
 * PostgreSQL tests as skipped, by name.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export const PG_URL = process.env.URIKIT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<string | undefined> | undefined;

/** Undefined if PostgreSQL answers, else why not. */
export function postgresProblem(): Promise<string | undefined> {
  return (reachable ??= (async () => {
    const c = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
    try {
      await c.connect();
      await c.query('select 1');
      return undefined;
    } catch (e) {
      return (e as Error).message || String(e);
    } finally {
      await c.end().catch(() => undefined);
    }
  })());
}

/** One engine a test file runs on. */
export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** Why the engine cannot be used, if it cannot. */
  unavailable?: string;
  /** A fresh database URL for this file (a new SQLite file, or a new PostgreSQL schema). */
  freshDb(): string;
  /** Removes what freshDb created. */
  cleanup(): Promise<void>;
}

/**
 * The engines for one test file; prints the PostgreSQL banner when it is
 * unreachable.
 */
export async function testEngines(file: string): Promise<TestEngine[]> {
  const problem = await postgresProblem();
  if (problem !== undefined) {
    console.warn([
      '',
      '#'.repeat(78),
      `#  PostgreSQL NOT REACHABLE at ${PG_URL}`,
      `#  (${problem})`,
      `#  The PostgreSQL half of ${file} is SKIPPED; only SQLite is tested.`,
      '#  Start PostgreSQL or set URIKIT_TEST_PG to run it.',
      '#'.repeat(78),
      '',
    ].join('\n'));
  }
  const tag = file.replace(/[^a-z0-9]+/gi, '_').toLowerCase().slice(0, 30);
  const dir = mkdtempSync(join(tmpdir(), `urikit-${tag}-`));
  const schemas: string[] = [];
  let n = 0;
  const sqlite: TestEngine = {
    name: 'sqlite',
    freshDb: () => join(dir, `db${n++}.sqlite`),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
  const postgres: TestEngine = {
    name: 'postgres',
    ...(problem !== undefined ? { unavailable: problem } : {}),
    freshDb: () => {
      const schema = `t_${tag}_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      return `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${schema}`;
    },
    cleanup: async () => {
      if (problem !== undefined || schemas.length === 0) return;
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try { for (const s of schemas) await c.query(`drop schema if exists "${s}" cascade`); } finally { await c.end(); }
    },
  };
  return [sqlite, postgres];
}
