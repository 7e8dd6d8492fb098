// End-to-end in headless Chromium (Debian's /usr/bin/chromium driven by
// playwright-core): the web page parses a URI, warns about the 2003
// draft §7.5 example, resolves a URN and follows its link. Screenshots go
// to test-artifacts/ at the repository root.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startGateway, startServer, type RunningServer } from '@urikit/resolver';
import { startTestServer, tableResolver, type TestServer } from '../client/http-servers.js';

const CHROMIUM = process.env['URIKIT_CHROMIUM'] ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`\n!!! Chromium is NOT installed at ${CHROMIUM}: the end-to-end browser tests are SKIPPED (apt-get install chromium; .ci/run installs it) !!!\n`);
}
const ARTIFACTS = fileURLToPath(new URL('../../../../test-artifacts/', import.meta.url));

/** `[[[…depth…[0, 0, …width zeros…]…]]]`: a record past the input limits, as an older store may hold one. */
function deepAndWide(depth: number, width: number): unknown {
  let v: unknown = new Array(width).fill(0);
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
const PLANTED = 'urn:example:planted';
/** The most a page about the planted record may weigh, as the browser holds it (its JSON is 46 KB; unbounded, 138 MB). */
const PAGE_BOUND = 300_000;

describe.skipIf(!hasChromium)(hasChromium ? 'the web page in headless Chromium' : 'the web page in headless Chromium (SKIPPED: chromium is not installed)', () => {
  let docs: TestServer;
  let resolver: TestServer;
  let gateway: { url: string; close(): Promise<void> };
  let plantedGateway: { url: string; close(): Promise<void> };
  let plantedResolver: TestServer;
  let serve: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let profile: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    docs = await startTestServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!DOCTYPE html><title>Phone list</title><h1 id="doc">The WNLN-Bigstate phone list</h1><p>${req.url}</p>`);
    });
    resolver = await startTestServer(tableResolver({
      'urn:example:phone-list': {
        status: 200,
        type: 'text/urc-0',
        body: `=====US-ASCII/en\r\n${docs.url}/pub/mirrors/phone-list.html\r\nThis is the most up-to-date version of the WNLN-Bigstate phone list.\r\n`,
      },
    }));
    gateway = await startGateway({ port: 0, resolvers: [resolver.url] });
    serve = await startServer({ port: 0, db: ':memory:', rateLimit: false });
    await serve.store.writer.put('urn:example:phone-list', { urn: 'urn:example:phone-list', locations: [{ url: `${docs.url}/served/phone-list.html`, mediaType: 'text/html' }] }, 'test');
    // Planted past the input limits, as an older store may hold it, in the store of serve and at a resolver behind a gateway.
    const planted = { urn: PLANTED, locations: [{ url: `${docs.url}/planted.html` }], metadata: { x: deepAndWide(3000, 20_000) } };
    await serve.store.writer.put(PLANTED, planted, 'test');
    plantedResolver = await startTestServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(planted)); });
    plantedGateway = await startGateway({ port: 0, resolvers: [`${plantedResolver.url}/{urn}`] });
    profile = await mkdtemp(join(tmpdir(), 'urikit-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1100, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  });

  afterAll(async () => {
    await context?.close();
    await plantedGateway?.close();
    await plantedResolver?.close();
    await gateway?.close();
    await serve?.close();
    await resolver?.close();
    await docs?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  /** Types into the focused URI field and submits with the keyboard. */
  async function look(uri: string, base = gateway.url): Promise<void> {
    await page.goto(`${base}/`);
    // autofocus is applied at a rendering step after load: wait for it rather than race it.
    // (page.evaluate goes through the DevTools protocol, which the page's CSP does not govern;
    // waitForFunction evaluates inside the page and can be refused by it.)
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('uri');
    await page.keyboard.type(uri);
    await Promise.all([page.waitForURL((u) => u.searchParams.get('uri') === uri), page.keyboard.press('Enter')]);
  }

  it('parses a URI and lays out its components', async () => {
    await look('foo://user@example.com:8042/over/there?name=ferret#nose');
    expect(await page.locator('.diagram .c-host').textContent()).toBe('example.com');
    expect(await page.locator('.diagram .c-port').textContent()).toBe('8042');
    expect(await page.locator('.diagram .c-fragment').textContent()).toBe('nose');
    await page.screenshot({ path: join(ARTIFACTS, 'web-parse.png'), fullPage: true });
  });

  it('shows the userinfo apart and a lint warning for the 2003 draft §7.5 example', async () => {
    await look('http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm');
    expect(await page.locator('.apart').textContent()).toContain('10.0.0.1');
    expect(await page.locator('ul.lint li').count()).toBeGreaterThan(0);
    expect(await page.locator('ul.lint').textContent()).toContain('userinfo');
    await page.screenshot({ path: join(ARTIFACTS, 'web-lint-7.5.png'), fullPage: true });
  });

  it('the second field and the button are reached with Tab, and focus is visible', async () => {
    await page.goto(`${gateway.url}/`);
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('uri');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.id')).toBe('compare');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('BUTTON');
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).toBe('solid');
  });

  it('resolves an example URN and follows its link to the document', async () => {
    await look('urn:example:phone-list');
    const link = page.locator('.resolution ul.locations a').first();
    expect(await link.getAttribute('href')).toBe(`${docs.url}/pub/mirrors/phone-list.html`);
    await page.screenshot({ path: join(ARTIFACTS, 'web-resolve-urn.png'), fullPage: true });
    await Promise.all([page.waitForURL(`${docs.url}/pub/mirrors/phone-list.html`), link.click()]);
    expect(await page.locator('#doc').textContent()).toBe('The WNLN-Bigstate phone list');
    await page.screenshot({ path: join(ARTIFACTS, 'web-followed-link.png'), fullPage: true });
  });

  it('the page of urikit serve resolves from its own store and its link works', async () => {
    await look('urn:example:phone-list', serve.url);
    const link = page.locator('.resolution ul.locations a').first();
    expect(await link.getAttribute('href')).toBe(`${docs.url}/served/phone-list.html`);
    await page.screenshot({ path: join(ARTIFACTS, 'serve-resolve-urn.png'), fullPage: true });
    await Promise.all([page.waitForURL(`${docs.url}/served/phone-list.html`), link.click()]);
    expect(await page.locator('#doc').textContent()).toBe('The WNLN-Bigstate phone list');
  });

  it('the gateway page of a URN has working links too', async () => {
    await page.goto(`${gateway.url}/urn:example:phone-list`);
    const link = page.locator('ul.locations a').first();
    await page.screenshot({ path: join(ARTIFACTS, 'gateway-urn.png'), fullPage: true });
    await Promise.all([page.waitForURL(`${docs.url}/pub/mirrors/phone-list.html`), link.click()]);
    expect(await page.locator('#doc').textContent()).toBe('The WNLN-Bigstate phone list');
  });
  it('the page of serve and a gateway page show a planted deep and wide record in a bounded page, the cut marked', async () => {
    for (const [url, name] of [[`${serve.url}/?uri=${encodeURIComponent(PLANTED)}`, 'serve-planted.png'], [`${plantedGateway.url}/${PLANTED}`, 'gateway-planted.png']] as const) {
      // Loaded within the default navigation timeout: what used to be a page of 138 MB is a few hundred KB.
      const res = await page.goto(url);
      expect(res?.status()).toBe(200);
      const size = await page.evaluate('document.documentElement.outerHTML.length') as number;
      expect(size).toBeLessThan(PAGE_BOUND);
      expect(await page.locator('pre.meta').last().textContent()).toContain('truncated');
      expect(await page.locator('ul.locations a').first().getAttribute('href')).toBe(`${docs.url}/planted.html`);
      await page.screenshot({ path: join(ARTIFACTS, name) });
    }
  });
});
