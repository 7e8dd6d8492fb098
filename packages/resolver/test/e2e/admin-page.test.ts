// The cataloguers' page at /admin/ in headless Chromium (Debian's
// /usr/bin/chromium driven by playwright-core), against a running
// resolver: sign in with a token, create a name, see it resolve, withdraw
// it with a reason, see the 410 and the history, import a file with one
// bad line and see the report, mint a name, the link and statistics
// reports, search the names by link health, a keyboard-only path through
// create, edit and move a name, and the page on a phone.
// Every step leaves a screenshot in test-artifacts/admin/ at the
// repository root; no step may break the page's Content-Security-Policy.
// The page's browser code is type-checked here too (its tsconfig).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { nbnCheckDigit } from 'urikit';
import { createToken, startServer, type RunningServer } from '@urikit/resolver';
import { startTestServer, type TestServer } from '../client/http-servers.js';

const CHROMIUM = process.env['URIKIT_CHROMIUM'] ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`\n!!! Chromium is NOT installed at ${CHROMIUM}: the cataloguers' page browser tests are SKIPPED (apt-get install chromium; .ci/run installs it) !!!\n`);
}
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts', 'admin');

const NAME = 'urn:nbn:de:101-2020071401';
const KEYBOARD_NAME = 'urn:nbn:de:101-2020071413';
const REASON = 'Withdrawn at the author\'s request; the thesis was replaced by its second edition';

describe('the page\'s browser code', () => {
  it('type-checks strictly (its JSDoc, DOM types)', async () => {
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', join(ROOT, 'packages/resolver/src/web/admin/tsconfig.json')]).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
    expect(stdout).toBe('');
  }, 120_000);
});

describe.skipIf(!hasChromium)(hasChromium ? 'the cataloguers\' page in headless Chromium' : 'the cataloguers\' page in headless Chromium (SKIPPED: chromium is not installed)', () => {
  let docs: TestServer;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  let token: string;
  const seeded: string[] = [];
  const problems: string[] = [];
  const refused: string[] = [];
  let shot = 0;

  /** A screenshot of the whole page, numbered in the order of the steps. */
  const snap = async (name: string) => {
    await page.screenshot({ path: join(ARTIFACTS, `${String(++shot).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
  /** The view's heading once it says `text` (the views load asynchronously). */
  const heading = async (text: string) => expect.poll(() => page.locator('#view-title').textContent()).toBe(text);

  beforeAll(async () => {
    await rm(ARTIFACTS, { recursive: true, force: true });
    await mkdir(ARTIFACTS, { recursive: true });
    docs = await startTestServer((req, res) => {
      if (req.url?.startsWith('/missing')) return void res.writeHead(404).end('gone');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>A thesis</title><h1 id="doc">A thesis</h1><p>${req.url}</p>`);
    });
    server = await startServer({
      port: 0, db: ':memory:', rateLimit: false, adminRateLimit: false,
      // loopback allowed for the test's origin only: the broken-links report has something to show
      checkLinks: { probe: { allowAddresses: 'all', timeoutMs: 5000 }, politeness: { perHostConcurrency: 4, perHostDelayMs: 0, globalRate: 0, concurrency: 8 }, pauseMs: 100 },
    });
    token = (await createToken(server.store, { authority: 'urn:nbn:de' })).token;
    // names that were there before: one with a broken location, resolved by people and robots
    for (const [i, path] of ['/thesis-a', '/missing/thesis-b'].entries()) {
      const minted = await server.store.minter.mint({ prefix: 'urn:nbn:de:101-', mode: 'counter', start: 202007160 + i * 10, record: { locations: [{ url: `${docs.url}${path}` }], metadata: { title: `Thesis ${i + 1}` } } });
      seeded.push(minted.record.urn);
      for (const agent of ['Mozilla/5.0 Firefox/140.0', 'Mozilla/5.0 Firefox/140.0', 'Googlebot/2.1']) await fetch(`${server.url}/uri-res/I2L?${minted.record.urn}`, { redirect: 'manual', headers: { 'user-agent': agent } });
    }
    profile = await mkdtemp(join(tmpdir(), 'urikit-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1100, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    // the browser logs every 4xx it fetched as a console error: those are checked by their URL instead
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded with a status of 4')) problems.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) refused.push(`${r.status()} ${new URL(r.url()).pathname}`); });
    page.on('pageerror', (e) => problems.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await docs?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('signs in with a token kept in the tab\'s session storage, never in a URL or a cookie', async () => {
    const response = await page.goto(`${server.url}/admin/`);
    expect(response!.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    expect(response!.headers()['content-security-policy']).not.toMatch(/unsafe-inline/);
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('token');
    await snap('sign-in');
    await page.keyboard.type('uk_not-a-token');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#sign-in-error').textContent()).toContain('Unauthorized');
    await page.fill('#token', token);
    await page.keyboard.press('Enter');
    await heading('Names');
    expect(await page.locator('#who').textContent()).toBe('Signed in for urn:nbn:de');
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate('sessionStorage.getItem("urikit-admin-token")')).toBe(token);
    expect(await context.cookies()).toEqual([]);
    expect(await page.locator('#view tbody tr').count()).toBe(2);
    await snap('names');
  });

  it('creates a name and sees it resolve', async () => {
    await page.click('nav >> text=New name');
    await heading('New name');
    await page.fill('input[name=urn]', NAME);
    await page.fill('textarea[name=locations]', `${docs.url}/thesis-1`);
    await page.fill('textarea[name=metadata]', '{"title": "A thesis on persistent names"}');
    await snap('create');
    await page.click('button:has-text("Create")');
    await heading(NAME);
    expect(await page.locator('dl.record').textContent()).toContain('A thesis on persistent names');
    await snap('name');
    await Promise.all([page.waitForURL(`${docs.url}/thesis-1`), page.click('#resolve-link')]);
    expect(await page.locator('#doc').textContent()).toBe('A thesis');
    await snap('resolved');
    await page.goBack();
    await heading(NAME);
  });

  it('withdraws it with a reason: the resolver answers 410 with the reason, and the history shows the change', async () => {
    await page.fill('#actions textarea[name=reason]', REASON);
    await page.click('#actions button:has-text("Withdraw")');
    await expect.poll(() => page.locator('dl.record .badge').textContent()).toBe('withdrawn');
    await expect.poll(() => page.locator('#history tbody tr').count()).toBe(2);
    expect(await page.locator('#history tbody').textContent()).toMatch(/create.*withdraw/s);
    expect(await page.locator('#history tbody').textContent()).toContain(REASON);
    await snap('withdrawn-history');
    // (the browser keeps the redirect it followed for its max-age: ask in another form)
    const gone = await page.goto(`${server.url}/uri-res/I2L?${NAME}`);
    expect(gone!.status()).toBe(410);
    expect(await page.textContent('body')).toContain(REASON);
    await snap('gone');
    const history = await page.goto(`${server.url}/${NAME}?history`);
    expect(history!.status()).toBe(410);
    expect(await page.textContent('body')).toMatch(/create.*withdraw/s);
    await snap('public-history');
  });

  it('imports a file with one bad line: nothing is written, and the report names the line', async () => {
    await page.goto(`${server.url}/admin/#/import`);
    await heading('Import names');
    // line 3: a location whose scheme the resolver does not take
    const csv = `urn,url\r\nurn:nbn:de:101-2020071427,${docs.url}/thesis-27\r\nurn:nbn:de:101-2020071439,javascript:alert(1)\r\n`;
    await page.setInputFiles('input[type=file]', { name: 'theses.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.click('button:has-text("Import")');
    await expect.poll(() => page.locator('#import-report').textContent()).toContain('Nothing was written: 1 bad line of theses.csv');
    const row = await page.locator('#import-report tbody tr').textContent();
    expect(row).toMatch(/^3/);
    expect(row).toContain('scheme-not-allowed');
    expect(await server.store.names.get('urn:nbn:de:101-2020071427')).toBeUndefined();
    await snap('import-report');
  });

  it('mints the next name under a prefix, a valid NBN', async () => {
    await page.goto(`${server.url}/admin/#/mint`);
    await heading('Mint a name');
    // a prefix with no counter yet starts where it is told
    await page.fill('input[name=prefix]', 'urn:nbn:de:102-');
    await page.fill('input[name=start]', '202011300');
    await page.click('button:has-text("Mint")');
    await expect.poll(() => page.locator('.done').textContent()).toMatch(/^Minted urn:nbn:de:102-202011300\d \(reserved\)\.$/);
    const minted = (await page.locator('.done a').textContent())!;
    expect(String(nbnCheckDigit(minted.slice(0, -1)))).toBe(minted.slice(-1));
    expect((await server.store.names.get(minted))?.status).toBe('reserved');
    await snap('mint');
  });

  it('shows the broken links and the resolution counts', async () => {
    await page.goto(`${server.url}/admin/#/links?state=failing`);
    await heading('Link health');
    await expect.poll(async () => { await page.reload(); await heading('Link health'); return page.locator('#view tbody tr').count(); }, { timeout: 20_000 }).toBe(1);
    expect(await page.locator('#view tbody').textContent()).toContain(`${docs.url}/missing/thesis-b`);
    await snap('links');
    await page.goto(`${server.url}/admin/#/stats?by=name`);
    await heading('Resolution statistics');
    // each name of before: two resolutions by a browser, one by a robot
    await expect.poll(() => page.locator('#view tbody').textContent()).toContain(`${seeded[0]}21`);
    expect(await page.locator('#view tbody').textContent()).toContain(`${seeded[1]}21`);
    await snap('stats');
  });

  it('shows the repositories harvested under its authority, the last harvest and the records refused with the reason', async () => {
    const repo = 'https://repo.example/oai epicur';
    await server.store.harvestLog.save({
      repo, baseUrl: 'https://repo.example/oai', metadataPrefix: 'epicur', set: 'theses', authority: 'urn:nbn:de:101', granularity: 'second', nextFrom: '2026-12-01T00:00:00Z',
      last: { status: 'ok', finished: Date.UTC(2026, 11, 1), from: '2026-11-01T00:00:00Z', pages: 3, applied: 250, unchanged: 12, refused: 1 },
      totals: { harvests: 4, applied: 900, refused: 1 },
    });
    await server.store.harvestLog.refuse(repo, [{ at: Date.UTC(2026, 11, 1), identifier: 'oai:repo.example:77', urn: 'urn:nbn:ch:0815-1', code: 'outside-authority', reason: 'urn:nbn:ch:0815-1 is not under urn:nbn:de:101' }]);
    // A repository of another authority is not this token's to see.
    await server.store.harvestLog.save({ repo: 'https://other.example/oai epicur', baseUrl: 'https://other.example/oai', metadataPrefix: 'epicur', authority: 'urn:nbn:ch', totals: { harvests: 0, applied: 0, refused: 0 } });
    await page.goto(`${server.url}/admin/#/harvests`);
    await heading('Harvests');
    const view = page.locator('#view');
    await expect.poll(() => view.locator('table').count()).toBe(2);
    const text = await view.textContent();
    for (const part of ['https://repo.example/oai', 'epicur, set theses', 'urn:nbn:de:101', '250, 12, 1', 'from 2026-12-01T00:00:00Z', 'oai:repo.example:77', 'outside-authority: urn:nbn:ch:0815-1 is not under urn:nbn:de:101']) expect(text).toContain(part);
    expect(text).not.toContain('other.example');
    await snap('harvests');
  });

  it('searches the names by link health as well as prefix and status', async () => {
    await page.goto(`${server.url}/admin/#/names`);
    await heading('Names');
    await page.fill('input[name=prefix]', 'urn:nbn:de:101-');
    await page.selectOption('select[name=status]', 'active');
    await page.selectOption('select[name=links]', 'failing');
    await page.click('form.query button[type=submit]');
    await expect.poll(() => page.url()).toContain('links=failing');
    await expect.poll(() => page.locator('#view caption').textContent()).toBe('Names under urn:nbn:de:101-, active, links failing');
    // the name whose location answers 404, with its health beside it
    expect(await page.locator('#view tbody tr').count()).toBe(1);
    expect(await page.locator('#view tbody tr').textContent()).toContain(seeded[1]);
    expect(await page.locator('#view tbody .badge.failing').textContent()).toBe('failing');
    await snap('names-links-failing');
    await page.selectOption('select[name=links]', 'healthy');
    await page.click('form.query button[type=submit]');
    await expect.poll(() => page.locator('#view caption').textContent()).toBe('Names under urn:nbn:de:101-, active, links healthy');
    expect(await page.locator('#view tbody tr').count()).toBe(1);
    expect(await page.locator('#view tbody tr').textContent()).toContain(seeded[0]);
    await snap('names-links-healthy');
  });

  it('creates a name with the keyboard alone', async () => {
    await page.goto(`${server.url}/admin/#/names`);
    await heading('Names');
    // Tab from the top of the page to "New name", as a keyboard user does.
    await page.evaluate('document.activeElement?.blur()');
    let presses = 0;
    while ((await page.evaluate('document.activeElement?.textContent')) !== 'New name') {
      await page.keyboard.press('Tab');
      expect(++presses).toBeLessThan(20);
    }
    await page.keyboard.press('Enter');
    await heading('New name');
    // the URN field has the focus, the authority typed in
    expect(await page.evaluate('document.activeElement?.getAttribute("name")')).toBe('urn');
    await page.keyboard.press('End');
    await page.keyboard.type(KEYBOARD_NAME.slice('urn:nbn:de:'.length));
    await page.keyboard.press('Tab'); // status
    await page.keyboard.press('Tab'); // locations
    await page.keyboard.type(`${docs.url}/thesis-13`);
    await page.keyboard.press('Tab'); // metadata
    await page.keyboard.type('{"title": "Typed, not clicked"}');
    await page.keyboard.press('Tab'); // successor
    await page.keyboard.press('Tab'); // Create
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Create');
    await snap('keyboard-create');
    await page.keyboard.press('Enter');
    await heading(KEYBOARD_NAME);
    expect(await page.evaluate('document.activeElement?.id')).toBe('view-title');
    expect(await server.store.names.get(KEYBOARD_NAME)).toMatchObject({ status: 'active', locations: [{ url: `${docs.url}/thesis-13` }], metadata: { title: 'Typed, not clicked' } });
    await snap('keyboard-created');
  });

  it('edits a name\'s locations, then moves it to another name: it redirects there with its successor linked', async () => {
    await page.click('a:has-text("Edit locations and metadata")');
    await heading(`Edit ${KEYBOARD_NAME}`);
    await page.fill('textarea[name=locations]', `${docs.url}/thesis-13\n${docs.url}/thesis-13-mirror`);
    await page.click('button:has-text("Save")');
    await heading(KEYBOARD_NAME);
    await expect.poll(() => page.locator('dl.record ol li').count()).toBe(2);
    expect(await server.store.names.get(KEYBOARD_NAME)).toMatchObject({ version: 2, locations: [{ url: `${docs.url}/thesis-13` }, { url: `${docs.url}/thesis-13-mirror` }] });
    await snap('edited');
    await page.fill('#actions input[name=to]', seeded[0]!);
    await page.fill('#actions input[name=reason]', 'the same thesis was registered twice');
    await page.click('#actions button:has-text("Move")');
    await expect.poll(() => page.locator('dl.record .badge').textContent()).toBe('moved');
    expect(await page.locator('dl.record').textContent()).toContain(`Moved permanently to${seeded[0]}`);
    await expect.poll(() => page.locator('#history tbody tr').count()).toBe(3);
    await snap('moved');
    const moved = await fetch(`${server.url}/uri-res/I2L?${KEYBOARD_NAME}`, { redirect: 'manual' });
    expect([moved.status, moved.headers.get('link')]).toEqual([301, `<${seeded[0]}>; rel="successor-version"`]);
  });

  it('is readable on a phone: one column, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${server.url}/admin/#/name/${encodeURIComponent(KEYBOARD_NAME)}`);
    await heading(KEYBOARD_NAME);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await snap('phone');
  });

  it('broke no rule of the Content-Security-Policy and raised no error on the way', () => {
    expect(problems).toEqual([]);
    // the only refusals: the bad token, the withdrawn name (410) and its history, the bad import (and a resolver page's favicon, when the browser asks)
    expect(new Set(refused.filter((r) => r !== '404 /favicon.ico'))).toEqual(new Set(['401 /admin/names', '410 /uri-res/I2L', `410 /${NAME}`, '422 /admin/import']));
  });
});
