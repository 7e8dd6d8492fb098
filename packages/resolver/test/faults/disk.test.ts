/**
 * A SQLite store on a disk that fills up or turns read-only: writes are
 * refused with a clear problem (507 store-full, 503 store-read-only, with
 * Retry-After), resolutions go on, nothing acknowledged is lost, and the
 * store opens cleanly once there is room again. The disk is a small tmpfs
 * the test mounts (root, CAP_SYS_ADMIN); where mounting is impossible the
 * suite says so by name and is reported skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { get } from '../helpers/http.js';
import { runMain, startChildServer, type Child } from '../helpers/child.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-disk-'));
const mnt = join(dir, 'mnt');
mkdirSync(mnt);

/** Mounts a tmpfs of `size` at the test's directory; why it cannot be, if it cannot. */
function mountProblem(): string | undefined {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0777', 'tmpfs', mnt], { stdio: 'pipe' });
    return undefined;
  } catch (e) {
    return ((e as { stderr?: Buffer }).stderr?.toString() ?? String(e)).trim() || 'mount failed';
  }
}

const problem = mountProblem();
if (problem !== undefined) {
  console.warn([
    '',
    '#'.repeat(78),
    '#  NO SMALL FILE SYSTEM COULD BE MOUNTED FOR THE DISK TESTS',
    `#  (${problem}; mounting a tmpfs needs root or CAP_SYS_ADMIN)`,
    '#  disk.test.ts is SKIPPED: a full disk and a read-only file system are not tested.',
    '#'.repeat(78),
    '',
  ].join('\n'));
}
const suite = problem === undefined ? describe : describe.skip;

const remount = (opts: string) => execFileSync('mount', ['-o', `remount,${opts}`, mnt]);

afterAll(() => {
  if (problem === undefined) execFileSync('umount', ['-l', mnt]);
  rmSync(dir, { recursive: true, force: true });
});

suite('SQLite on a disk that fills up or turns read-only', () => {
  const db = join(mnt, 'names.sqlite');
  const filler = join(mnt, 'filler');
  let server: Child & { url: string };
  let token: string;
  /** Every write the server acknowledged: name -> the location it holds. */
  const acknowledged = new Map<string, string>();

  const put = async (urn: string, url: string) => {
    const r = await get(server.url, `/admin/names/${urn}`, { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, { method: 'PUT', body: JSON.stringify({ locations: [url] }) });
    if (r.status < 300) acknowledged.set(urn, url);
    return r;
  };
  /** Writes a file until the file system is full. */
  const fill = () => {
    const chunk = Buffer.alloc(64 * 1024, 1);
    let n = 0;
    try { for (;;) { writeFileSync(filler, chunk, { flag: 'a' }); n++; } } catch { /* ENOSPC: full */ }
    return n;
  };

  beforeAll(async () => {
    const t = await runMain(['token', '--db', db, '--authority', 'urn:example']);
    expect(await t.exited).toBe(0);
    token = (JSON.parse(t.stdout()) as { token: string }).token;
    server = await startChildServer(['--db', db, '--no-rate-limit']);
    for (let i = 0; i < 20; i++) expect((await put(`urn:example:d${i}`, `https://a.example/${i}`)).status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    server?.proc.kill('SIGTERM');
    await server?.exited;
  });

  it('a full disk: writes answer 507 store-full with Retry-After, resolutions go on, /healthz and /metrics say so', async () => {
    expect(fill()).toBeGreaterThan(0);
    let refused: Awaited<ReturnType<typeof put>> | undefined;
    // A write may still fit in pages SQLite already holds; a few more fill them.
    for (let i = 0; i < 200 && refused === undefined; i++) {
      const r = await put(`urn:example:full-${i}`, `https://a.example/full/${i}/${'x'.repeat(2000)}`);
      if (r.status >= 300) refused = r;
    }
    expect(refused?.status).toBe(507);
    expect(refused?.headers.get('retry-after')).toBe('60');
    expect(JSON.parse(refused!.text)).toMatchObject({ code: 'store-full', outcome: 'not-committed', status: 507 });
    expect(refused!.text).not.toContain(mnt);
    for (const [urn, url] of acknowledged) {
      const r = await get(server.url, `/${urn}`);
      expect([r.status, r.headers.get('location')]).toEqual([302, url]);
    }
    expect(JSON.parse((await get(server.url, '/healthz')).text)).toMatchObject({ status: 'degraded', primary: 'up', reads: 'primary', writes: 'store-full' });
    const metrics = (await get(server.url, '/metrics')).text;
    expect(metrics).toContain('urikit_store_writes_ok 0');
    expect(metrics).toMatch(/^urikit_store_fault_answers_total\{code="store-full"\} [1-9]/m);
    expect(server.proc.exitCode).toBeNull();
  });

  it('once there is room, writes go through again, and the store opens cleanly with every acknowledged write', async () => {
    rmSync(filler);
    expect((await put('urn:example:after-full', 'https://a.example/after')).status).toBe(201);
    expect(JSON.parse((await get(server.url, '/healthz')).text)).toMatchObject({ status: 'ok', writes: 'ok' });
    // A crash now, and a new process: what was acknowledged is there.
    server.proc.kill('SIGKILL');
    await server.exited;
    const store = await openStore(db);
    try {
      for (const [urn, url] of acknowledged) expect((await store.names.get(urn))?.locations[0]?.url).toBe(url);
    } finally {
      await store.close();
    }
    server = await startChildServer(['--db', db, '--no-rate-limit']);
    expect((await get(server.url, '/urn:example:after-full')).status).toBe(302);
  });

  it('a read-only file system: a server starts on it, answers every name, refuses writes with 503 store-read-only; read-write again, writes go through', async () => {
    server.proc.kill('SIGTERM');
    await server.exited;
    // No file is open now: the file system can be made read-only (as a medium mounted so, or one the kernel remounted after an error).
    remount('ro');
    try {
      server = await startChildServer(['--db', db, '--no-rate-limit']);
      const r = await put('urn:example:ro', 'https://a.example/ro');
      expect([r.status, r.headers.get('retry-after')]).toEqual([503, '30']);
      expect(JSON.parse(r.text)).toMatchObject({ code: 'store-read-only', outcome: 'not-committed' });
      for (const [urn, url] of acknowledged) expect((await get(server.url, `/${urn}`)).headers.get('location')).toBe(url);
      expect((await get(server.url, '/urn:example:never')).status).toBe(404);
      expect(JSON.parse((await get(server.url, '/healthz')).text)).toMatchObject({ status: 'degraded', reads: 'primary', writes: 'store-read-only' });
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      remount('rw');
    }
    server = await startChildServer(['--db', db, '--no-rate-limit']);
    expect((await put('urn:example:ro', 'https://a.example/ro')).status).toBe(201);
    expect(JSON.parse((await get(server.url, '/healthz')).text)).toMatchObject({ status: 'ok', writes: 'ok' });
  });
});
