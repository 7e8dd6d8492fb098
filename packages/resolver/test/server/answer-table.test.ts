/**
 * The answer table (src/server/resolution/answer-table.ts, printed in
 * docs/resolver.md) against a running server on both engines: every
 * state of a name × every request form × every format (and every
 * service of the RFC 2169 and directive forms), each answer checked for
 * its status, Reason-Phrase, Location, Link, its content type and a body
 * well formed in that format that says what the row says: no location
 * lost, the new URN or URL of a move, the reason and date of a
 * withdrawal.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server/index.js';
import { ANSWERS, answerTableMarkdown, type AnswerState, type Asked } from '../../src/server/resolution/answer-table.js';
import { parseUrc0 } from '../../src/formats/urc0.js';
import type { HistoryEntry, NameRecord } from '../../src/store/index.js';
import { testEngines } from '../helpers/engines.js';
import { get, rawExchange } from '../helpers/http.js';

const AUTH = 'urn:dns:library.bigstate.edu';
/** The token id recorded as the author of a change: the public history never shows it. */
const ACTOR = 'tok-7f3a-never-public';
/** One name in each state, under the demo authority (so that the bare form reaches every one). */
const NAMES: Record<AnswerState, string> = {
  active: 'phone-list',
  'moved-urn': 'old-price-list',
  'moved-url': 'moved-to-url',
  withdrawn: 'withdrawn-report',
  reserved: 'reserved-2027',
  unknown: 'no-such-name',
  rule: 'archive/1999/42',
  delegated: 'branch:doc-1',
  'handed-over': 'annex:doc-1',
};
/** The child authority of the demo authority that another resolver holds (never asked: the answers only point there). */
const CHILD = `${AUTH}:branch`;
const CHILD_RESOLVER = 'http://127.0.0.1:1/resolver';
/** An authority of the demo's whose resolution was handed over, and the resolver it went to. */
const ANNEX = `${AUTH}:annex`;
const NEW_RESOLVER = 'http://127.0.0.1:2/b';
/** The service a child's resolver is asked for what was asked here. */
const DELEGATED_SERVICES: Record<Asked, string> = { locate: 'I2L', list: 'I2Ls', describe: 'I2C', name: 'I2N', names: 'I2Ns', history: 'I2C' };
const FORMATS = {
  'urc-0': 'text/urc-0',
  plain: 'text/plain',
  html: 'text/html',
  json: 'application/json',
  'uri-list': 'text/uri-list',
} as const;
type Format = keyof typeof FORMATS;
const DEFAULT_ASKED: Record<Format, Asked> = { html: 'locate', 'urc-0': 'list', 'uri-list': 'list', plain: 'list', json: 'describe' };
const SERVICES: Array<[string, Asked]> = [['N2L', 'locate'], ['N2Ls', 'list'], ['N2C', 'describe'], ['N2N', 'name'], ['N2Ns', 'names']];

interface Got { status: number; reason: string; headers: Record<string, string>; body: Buffer }

/** How a text is written in a body of `format` (HTML escapes, JSON string escapes). */
function written(format: Format, s: string): string {
  if (format === 'html') return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
  if (format === 'json') return JSON.stringify(s).slice(1, -1);
  return s;
}

const engines = await testEngines('answer-table.test');
afterAll(async () => { for (const e of engines) await e.cleanup(); });

describe('the answer table in the docs', () => {
  it('docs/resolver.md prints the table of the code, as generated', () => {
    const docs = readFileSync(new URL('../../../../docs/resolver.md', import.meta.url), 'utf8');
    expect(docs).toContain(answerTableMarkdown());
  });
});

for (const engine of engines) {
  const suite = engine.unavailable !== undefined ? describe.skip : describe;
  suite(`${engine.name}: every state × request form × format answers as the table says`, () => {
    let server: RunningServer;
    const records = new Map<AnswerState, NameRecord | undefined>();
    const histories = new Map<AnswerState, HistoryEntry[]>();
    beforeAll(async () => {
      server = await startServer({ port: 0, db: engine.freshDb(), demo: true, rateLimit: false });
      await server.store.writer.put(`${AUTH}:moved-to-url`, { urn: `${AUTH}:moved-to-url`, status: 'moved', movedTo: 'https://elsewhere.example/report', permanent: false, reason: 'the publisher keeps it now' }, ACTOR);
      await server.store.writer.put(`${AUTH}:phone-list`, { urn: `${AUTH}:phone-list`, locations: (await server.store.names.get(`${AUTH}:phone-list`))!.locations, metadata: { note: 'checked' } }, ACTOR);
      await server.store.prefixRules.put(`${AUTH}:archive/`, 'https://archive.example/items/');
      const demo = (await server.store.authorities.get(AUTH))!;
      await server.store.authorities.put({ ...demo, children: [...demo.children, CHILD], resolvers: { ...demo.resolvers, [CHILD]: CHILD_RESOLVER } });
      // A name of the annex held here too: the handover answers for it all the same (1995 draft §6A).
      await server.store.writer.put(`${ANNEX}:doc-1`, { urn: `${ANNEX}:doc-1`, locations: [{ url: 'https://annex.example/doc-1' }] }, ACTOR);
      await server.store.authorities.put({ name: ANNEX, parents: [AUTH], children: [], handover: { to: NEW_RESOLVER, redirect: true, since: Date.now() } });
      // The server reads the registry's delegations and handovers at its next poll of the store's changes.
      for (let i = 0; i < 250 && (await fetch(`${server.url}/uri-res/I2L?${AUTH}:${NAMES.delegated}`, { redirect: 'manual' })).status !== 302; i++) await new Promise((r) => setTimeout(r, 20));
      for (let i = 0; i < 250 && (await fetch(`${server.url}/uri-res/I2L?${ANNEX}:doc-1`, { redirect: 'manual' })).status !== 301; i++) await new Promise((r) => setTimeout(r, 20));
      for (const [state, id] of Object.entries(NAMES) as Array<[AnswerState, string]>) {
        records.set(state, await server.store.names.get(`${AUTH}:${id}`));
        histories.set(state, await server.store.history.versions(`${AUTH}:${id}`));
      }
    });
    afterAll(async () => { await server?.close(); });

    const request = async (path: string, accept: string): Promise<Got> => {
      const { answer } = await rawExchange(server.port, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${accept}\r\nConnection: close\r\n\r\n`);
      return { status: answer!.status, reason: answer!.reason, headers: answer!.headers, body: answer!.body };
    };

    /** Checks one answer against the row of the table. */
    const check = (state: AnswerState, asked: Asked, format: Format, got: Got, form: string, service?: string) => {
      const row = ANSWERS[state][asked];
      const r = records.get(state);
      const text = got.body.toString('latin1');
      const what = `${state} ${asked} ${format} ${form}: ${got.status} ${text.slice(0, 200)}`;
      // Status and Reason-Phrase (a temporary move is 302; a redirect to a location is 302, seeOther being off).
      const status = row.location === 'target' && r?.permanent !== true ? 302 : row.status;
      expect(got.status, what).toBe(status);
      if (row.location === 'target') expect(got.reason, what).toBe(`${r!.permanent ? 'Moved Permanently' : 'Moved Temporarily'} to ${r!.movedTo}`);
      expect(got.headers['content-type']?.split(';')[0], what).toBe(FORMATS[format]);
      expect(got.headers.vary, what).toBe('Accept');
      // Location
      if (row.location === 'preferred') expect(r?.locations.map((l) => l.url) ?? ['https://archive.example/items/1999/42'], what).toContain(got.headers.location);
      else if (row.location === 'target' && r!.movedTo!.startsWith('urn:')) expect(got.headers.location, what).toMatch(new RegExp(`[/?]${r!.movedTo!.replace(/[.+]/g, '\\$&')}`));
      else if (row.location === 'target') expect(got.headers.location, what).toBe(r!.movedTo);
      else if (row.location === 'handover') {
        // The same request there: the request form kept, a bare ElementID as the whole URN.
        const location = got.headers.location ?? '';
        expect(location.startsWith(`${NEW_RESOLVER}/`), what).toBe(true);
        expect(location, what).toContain(`${ANNEX}:doc-1`);
        if (form.startsWith('/uri-res/')) expect(location, what).toBe(`${NEW_RESOLVER}${form}?${ANNEX}:doc-1`);
        expect(got.reason, what).toBe(`Moved Permanently to ${NEW_RESOLVER}`);
      } else if (row.location === 'delegate') {
        expect(got.headers.location, what).toBe(`${CHILD_RESOLVER}/uri-res/${service ?? DELEGATED_SERVICES[asked]}?${AUTH}:${NAMES.delegated}`);
        expect(got.reason, what).toBe(`Found at the resolver of ${CHILD}`);
      } else expect(got.headers.location, what).toBeUndefined();
      // Link: the successor of a moved name or of a record that names one (RFC 5829)
      const successor = r?.status === 'moved' ? r.movedTo : r?.successor;
      if (successor !== undefined && state !== 'unknown') expect(got.headers.link, what).toContain(`<${successor}>; rel="successor-version"`);
      // The body is well formed in its format.
      if (format === 'urc-0') expect(() => parseUrc0(got.body), what).not.toThrow();
      if (format === 'json') expect(() => JSON.parse(text), what).not.toThrow();
      if (format === 'uri-list') for (const line of text.split('\r\n').filter((l) => l !== '')) expect(line.startsWith('#') || /^[a-z][a-z0-9+.-]*:\S+$/i.test(line), what).toBe(true);
      if (format === 'html') expect(text, what).toMatch(/^<!doctype html>/i);
      // ... and says what the row says.
      const urls = format === 'urc-0' ? parseUrc0(got.body).map((p) => p.url) : [];
      switch (row.body) {
        case 'locations':
          // A name with several locations never loses one, whatever the format.
          for (const l of r?.locations ?? []) expect(text, what).toContain(written(format, l.url));
          break;
        case 'moved':
          expect(text, what).toContain(r!.movedTo);
          expect(text, what).toContain(new Date(r!.updated).toISOString());
          if (format === 'urc-0') expect(urls, what).toEqual([r!.movedTo]);
          if (format === 'uri-list') expect(text.split('\r\n').filter((l) => l !== '' && !l.startsWith('#')), what).toEqual([r!.movedTo]);
          break;
        case 'tombstone':
          // 410 with the reason and the date, in every format.
          expect(text, what).toContain(written(format, r!.reason!));
          expect(text, what).toContain(new Date(r!.updated).toISOString());
          if (format === 'urc-0') expect(urls, what).toEqual([`${server.url}/${r!.key}?s=I2C`]);
          break;
        case 'reserved':
          expect(text, what).toContain(new Date(r!.updated).toISOString());
          break;
        case 'delegated':
          expect(text, what).toContain(CHILD_RESOLVER);
          break;
        case 'handed-over':
          expect(text, what).toContain(NEW_RESOLVER);
          break;
        case 'unknown':
          if (format === 'urc-0') expect(text, what).toBe('');
          else expect(text, what).toContain(state === 'rule' ? NAMES.rule : NAMES.unknown);
          break;
        case 'history': {
          // Every version, when and what kind of change, in every format; never who made it.
          const versions = histories.get(state)!;
          expect(versions.length, what).toBeGreaterThan(0);
          for (const v of versions) {
            expect(text, what).toContain(new Date(v.at).toISOString());
            expect(text, what).toContain(v.op);
          }
          expect(text, what).not.toContain(ACTOR);
          if (r!.reason !== undefined) expect(text, what).toContain(written(format, r!.reason));
          if (format === 'urc-0') expect(urls, what).toEqual([`${server.url}/${r!.key}?history`]);
          if (format === 'json') expect(JSON.parse(text).history.map((h: { version: number; op: string }) => `${h.version} ${h.op}`), what).toEqual(versions.map((v) => `${v.version} ${v.op}`));
          break;
        }
        case 'record':
          if (format === 'json') expect(JSON.parse(text), what).toMatchObject({ key: r!.key, status: r!.status });
          else if (format === 'plain' || format === 'html') expect(text, what).toContain(r!.urn);
          break;
        case 'names':
          if (r?.status === 'moved' && r.movedTo!.startsWith('urn:')) expect(text, what).toContain(r.movedTo);
          else expect(text, what).toContain(r?.urn ?? `${AUTH}:${NAMES.rule}`);
          break;
      }
    };

    for (const state of Object.keys(NAMES) as AnswerState[]) {
      const id = NAMES[state];
      const urn = `${AUTH}:${id}`;
      for (const format of Object.keys(FORMATS) as Format[]) {
        it(`${state}: the 1995 bare form, /urn: form and ?info in ${format}`, async () => {
          check(state, DEFAULT_ASKED[format], format, await request(`/${id}`, FORMATS[format]), 'bare');
          check(state, DEFAULT_ASKED[format], format, await request(`/${urn}`, FORMATS[format]), 'urn');
          check(state, 'describe', format, await request(`/${urn}?info`, FORMATS[format]), '?info');
          check(state, 'history', format, await request(`/${urn}?history`, FORMATS[format]), '?history');
          check(state, 'history', format, await request(`/${id}?history`, FORMATS[format]), 'bare ?history');
          check(state, 'history', format, await request(`/${urn}?=history`, FORMATS[format]), '?=history');
        });
        it(`${state}: every RFC 2169 service and 2012 directive in ${format}`, async () => {
          for (const [svc, asked] of SERVICES) {
            check(state, asked, format, await request(`/uri-res/${svc}?${urn}`, FORMATS[format]), `/uri-res/${svc}`, svc.replace('N2', 'I2'));
            check(state, asked, format, await request(`/${urn}?s=${svc.replace('N2', 'I2')}`, FORMATS[format]), `?s=${svc}`, svc.replace('N2', 'I2'));
          }
        });
      }
      it(`${state}: an HTTP/0.9 Simple-Request gets the text/urc-0 list alone, no status line`, async () => {
        const { bytes } = await rawExchange(server.port, `GET ${id}\r\n`);
        expect(bytes.subarray(0, 5).toString()).not.toBe('HTTP/');
        const full = await request(`/${id}`, 'text/urc-0');
        // The Simple-Response is the body of the Full-Response to the same request (HTTP/1.0 §6).
        expect(bytes.toString('latin1')).toBe(full.body.toString('latin1'));
        check(state, 'list', 'urc-0', full, 'simple');
      });
      it(`${state}: a client that accepts none of the five formats: 406 with the list, unless the answer is an error`, async () => {
        for (const path of [`/${id}`, `/uri-res/N2Ls?${urn}`, `/uri-res/N2C?${urn}`]) {
          const got = await request(path, 'image/png');
          const asked: Asked = path.startsWith('/uri-res/N2C') ? 'describe' : path.startsWith('/uri-res/') ? 'list' : 'locate';
          const row = ANSWERS[state][asked];
          if (row.status < 400) {
            expect(got.status, path).toBe(406);
          } else {
            expect(got.status, path).toBe(row.status);
          }
          if (got.status === 406) expect(got.body.toString()).toContain('text/urc-0');
        }
      });
    }

    it('RFC 2483 services urikit does not give answer 501, whatever the name', async () => {
      for (const svc of ['L2N', 'L2Ns', 'L2L', 'L2Ls', 'L2R', 'L2Rs', 'L2C', 'N2R', 'N2Rs', 'I2R', 'I2Rs']) {
        expect((await request(`/uri-res/${svc}?${AUTH}:phone-list`, '*/*')).status, svc).toBe(501);
        expect((await request(`/uri-res/${svc}?http://a.example/x`, '*/*')).status, svc).toBe(501);
        expect((await request(`/${AUTH}:phone-list?s=${svc}`, '*/*')).status, svc).toBe(501);
      }
    });
  });
}
