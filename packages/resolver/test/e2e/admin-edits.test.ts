// The cataloguers' page edits names without erasing them, in headless
// Chromium (as admin-page.test.ts drives it), on both engines: an edit
// of the metadata keeps the successor; Save without a change on a moved
// name keeps it moved (nothing written); every state opens in the form
// with its fields and the statuses the lifecycle allows; of two
// cataloguers editing one name, the second is told that it was changed
// by someone else and offered their version, never overwrites it. The
// page's merge patches are checked against the server's (RFC 7396).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { createToken, LIFECYCLE, type NameState } from '../../src/store/index.js';
import { applyMergePatch } from '../../src/formats/merge-patch.js';
import { testEngines } from '../helpers/engines.js';
// @ts-expect-error the page's browser code is plain JS, type-checked by its own tsconfig (admin-page.test.ts)
import { holdsNull, mergePatchBetween } from '../../src/web/admin/merge-patch.js';
// @ts-expect-error as above
import { NEXT_STATUSES } from '../../src/web/admin/name-form.js';

const CHROMIUM = process.env['URIKIT_CHROMIUM'] ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const L = 'urn:nbn:de:101-';

describe('the page\'s rules, as the server\'s', () => {
  it('offers in each state its own status and exactly the others the lifecycle takes', () => {
    const ops = new Set(['create', 'update', 'move', 'withdraw', 'reinstate']);
    for (const [state, next] of Object.entries(LIFECYCLE) as Array<[NameState, Record<string, string>]>) {
      const allowed = Object.keys(next).filter((s) => ops.has(next[s]!));
      expect(new Set(NEXT_STATUSES[state]), state).toEqual(new Set(state === 'none' ? allowed : [state, ...allowed]));
    }
  });

  it('sends a merge patch that turns the record read into the record edited, and names nothing else', () => {
    const value = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.array(fc.integer(), { maxLength: 2 }), fc.dictionary(fc.constantFrom('x', 'y'), fc.integer(), { maxKeys: 2 }));
    const doc = fc.dictionary(fc.constantFrom('status', 'locations', 'metadata', 'successor', 'reason'), value, { maxKeys: 5 });
    fc.assert(fc.property(doc, doc, (before, after) => {
      fc.pre(!holdsNull(after));
      const patch = mergePatchBetween(before, after) as Record<string, unknown>;
      expect(applyMergePatch(before, patch)).toEqual(after);
      for (const k of Object.keys(patch)) expect(JSON.stringify(before[k])).not.toBe(JSON.stringify(after[k]));
    }), { numRuns: 1000 });
  });
});

const engines = await testEngines('admin-edits.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

for (const engine of engines) {
  const suite = !hasChromium || engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: editing names on the cataloguers' page (headless Chromium)`, () => {
    let server: RunningServer;
    let context: BrowserContext;
    let profile: string;
    let token: string;
    const problems: string[] = [];
    const auth = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${server.url}${path}`, { method, headers: auth(), ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      return r.json() as Promise<Record<string, any>>;
    };
    const record = (urn: string) => api('GET', `/admin/names/${urn}`);

    /** A tab signed in with the token. */
    const signedIn = async (): Promise<Page> => {
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(String(e)));
      // the browser logs every 4xx it fetched (the 412 of a stale edit) as a console error: anything else is a problem (a CSP violation)
      page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded with a status of 4')) problems.push(m.text()); });
      await page.goto(`${server.url}/admin/`);
      await page.fill('#token', token);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#view-title').textContent()).toBe('Names');
      return page;
    };
    const openForm = async (page: Page, urn: string) => {
      await page.goto(`${server.url}/admin/#/edit/${encodeURIComponent(urn)}`);
      await expect.poll(() => page.locator('#view-title').textContent()).toBe(`Edit ${urn}`);
    };
    const saved = (page: Page, urn: string) => expect.poll(() => page.locator('#view-title').textContent()).toBe(urn);

    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), rateLimit: false, adminRateLimit: false, checkLinks: false });
      token = (await createToken(server.store, { authority: 'urn:nbn:de' })).token;
      profile = await mkdtemp(join(tmpdir(), 'urikit-chromium-'));
      context = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM, headless: true, viewport: { width: 1100, height: 900 },
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
    }, 120_000);
    afterAll(async () => {
      await context?.close();
      await server?.close();
      if (profile) await rm(profile, { recursive: true, force: true });
    });

    it('an edit of the metadata alone keeps the successor, the locations and their metainformation', async () => {
      const urn = `${L}e1`;
      await api('PUT', `/admin/names/${urn}`, { locations: [{ url: 'https://a.example/e1', mediaType: 'text/html' }], successor: `${L}e2`, metadata: { title: 'First edition', year: 1995 } });
      const page = await signedIn();
      await openForm(page, urn);
      expect(await page.inputValue('input[name=successor]')).toBe(`${L}e2`);
      await page.fill('textarea[name=metadata]', '{"title": "First edition, revised"}');
      await page.click('button:has-text("Save")');
      await saved(page, urn);
      expect(await record(urn)).toMatchObject({ version: 2, successor: `${L}e2`, locations: [{ url: 'https://a.example/e1', mediaType: 'text/html' }], metadata: { title: 'First edition, revised' } });
      expect((await record(urn)).metadata).not.toHaveProperty('year');
      await page.close();
    });

    it('Save without a change keeps a moved name moved (nothing written); every state opens with its fields and the statuses the lifecycle allows', async () => {
      const moved = `${L}mv1`;
      await api('PUT', `/admin/names/${moved}`, { locations: ['https://a.example/mv1'], successor: `${L}mv3` });
      await api('POST', `/admin/move/${moved}`, { to: `${L}mv2`, permanent: false, reason: 'renumbered' });
      const reserved = `${L}rs1`;
      await api('PUT', `/admin/names/${reserved}`, { status: 'reserved', metadata: { title: 'held' } });
      const gone = `${L}wd1`;
      await api('PUT', `/admin/names/${gone}`, { locations: ['https://a.example/wd1'] });
      await api('POST', `/admin/withdraw/${gone}`, { reason: 'retracted' });
      const page = await signedIn();
      await openForm(page, moved);
      expect(await page.locator('select[name=status] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['moved', 'active', 'withdrawn']);
      expect([await page.inputValue('select[name=status]'), await page.inputValue('input[name=movedTo]'), await page.isChecked('input[name=permanent]'), await page.inputValue('textarea[name=reason]')])
        .toEqual(['moved', `${L}mv2`, false, 'renumbered']);
      const before = await record(moved);
      await page.click('button:has-text("Save")');
      await saved(page, moved);
      expect(await record(moved)).toEqual(before);
      expect(before).toMatchObject({ status: 'moved', movedTo: `${L}mv2`, successor: `${L}mv3`, version: 2 });
      for (const [urn, options] of [[reserved, ['reserved', 'active', 'withdrawn']], [gone, ['withdrawn']]] as const) {
        const was = await record(urn);
        await openForm(page, urn);
        expect(await page.locator('select[name=status] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(options);
        expect(await page.inputValue('select[name=status]')).toBe(was.status);
        await page.click('button:has-text("Save")');
        await saved(page, urn);
        expect(await record(urn)).toEqual(was);
      }
      // A change of status through the form: the move goes, what it did not touch stays.
      await openForm(page, moved);
      await page.selectOption('select[name=status]', 'active');
      expect(await page.isHidden('input[name=movedTo]')).toBe(true);
      await page.click('button:has-text("Save")');
      await saved(page, moved);
      const active = await record(moved);
      expect(active).toMatchObject({ status: 'active', successor: `${L}mv3`, reason: 'renumbered', locations: [{ url: 'https://a.example/mv1' }] });
      expect(active).not.toHaveProperty('movedTo');
      await page.close();
    });

    it('two cataloguers edit one name: the second is told it was changed by someone else, and overwrites nothing', async () => {
      const urn = `${L}tw1`;
      await api('PUT', `/admin/names/${urn}`, { locations: ['https://a.example/tw1'], metadata: { title: 'Two editors' } });
      const [first, second] = [await signedIn(), await signedIn()];
      await openForm(first, urn);
      await openForm(second, urn);
      await first.fill('textarea[name=metadata]', '{"title": "Two editors", "editor": "first"}');
      await first.click('button:has-text("Save")');
      await saved(first, urn);
      await second.fill('textarea[name=locations]', 'https://b.example/tw1');
      await second.click('button:has-text("Save")');
      await expect.poll(() => second.locator('#changed-elsewhere').textContent()).toMatch(/Changed by someone else: .* is now version 2 \(this form opened version 1\)/);
      expect(await second.locator('#changed-elsewhere').textContent()).toContain('"editor":"first"');
      expect(await record(urn)).toMatchObject({ version: 2, locations: [{ url: 'https://a.example/tw1' }], metadata: { editor: 'first' } });
      // Their version taken up, the second cataloguer's change applies to it without undoing the first's.
      await second.click('button:has-text("Apply my changes to their version")');
      await saved(second, urn);
      expect(await record(urn)).toMatchObject({ version: 3, locations: [{ url: 'https://b.example/tw1' }], metadata: { title: 'Two editors', editor: 'first' } });
      // Or they load the other version, and the form shows it.
      await openForm(second, urn);
      await first.reload();
      await openForm(first, urn);
      await second.fill('input[name=successor]', `${L}tw2`);
      await second.click('button:has-text("Save")');
      await saved(second, urn);
      await first.fill('textarea[name=metadata]', '{}');
      await first.click('button:has-text("Save")');
      await expect.poll(() => first.locator('#changed-elsewhere').count()).toBe(1);
      await first.click('button:has-text("Load their version")');
      await expect.poll(() => first.inputValue('input[name=successor]')).toBe(`${L}tw2`);
      expect(await record(urn)).toMatchObject({ version: 4, successor: `${L}tw2`, metadata: { editor: 'first' } });
      await first.close();
      await second.close();
    });

    it('raised no error in the page and broke no rule of its Content-Security-Policy', () => {
      expect(problems).toEqual([]);
    });
  });
}
