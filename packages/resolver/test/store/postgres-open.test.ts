/**
 * Opening a PostgreSQL store while other clients of the same database
 * create and drop their own schemas (other stores, other test files): the
 * migrator looks only at the store's schema (postgres-dialect.ts), so
 * another schema vanishing mid-way does not stop the store from opening.
 */
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { openStore } from '../../src/store/index.js';
import { PG_URL, testEngines } from '../helpers/engines.js';

const engines = await testEngines('postgres-open.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });
const postgres = engines.find((e) => e.name === 'postgres')!;

(postgres.unavailable !== undefined ? describe.skip : describe)('postgres: opening a store while others drop their schemas', () => {
  it('opens 20 stores, one after another, while another client creates and drops schemas as fast as it can', async () => {
    const churn = new pg.Client({ connectionString: PG_URL });
    await churn.connect();
    let stop = false;
    let dropped = 0;
    const churner = (async () => {
      while (!stop) {
        const s = `t_churn_${process.pid}_${dropped % 4}`;
        await churn.query(`create schema if not exists "${s}"; create table if not exists "${s}".t (a int)`);
        await churn.query(`drop schema "${s}" cascade`);
        dropped++;
      }
    })();
    try {
      for (let i = 0; i < 20; i++) {
        const store = await openStore(postgres.freshDb());
        await store.writer.put(`urn:example:o${i}`, { urn: `urn:example:o${i}` });
        expect((await store.names.get(`urn:example:o${i}`))?.version).toBe(1);
        await store.close();
      }
    } finally {
      stop = true;
      await churner;
      await churn.end();
    }
    expect(dropped).toBeGreaterThan(20);
  });
});
