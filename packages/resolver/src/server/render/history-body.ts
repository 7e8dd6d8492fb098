/**
 * The public history of a name (`?history`): every version the store
 * keeps, oldest first, with what changed and when, in each of the five
 * formats (server/resolution/answer-table.ts, body `history`). Who made a change
 * stays private: the token that wrote it is for the admin API alone.
 *
 * The history shows what PURLZ and urn.fi keep in their history tables
 * without exposing them: the record after each change (as the store
 * appends it, DESIGN.md: nothing is ever erased) and, for a person, the
 * fields that change altered.
 */
import { boundedJson } from '../../formats/bounded.js';
import { escapeHtml, htmlLink, htmlPage } from '../../formats/html.js';
import type { ResultFormat } from '../../formats/negotiate.js';
import type { ChangeOp, HistoryEntry, NameRecord } from '../../store/types.js';
import { urc0Meta } from './bodies.js';
import { formatUrc0 } from '../../formats/urc0.js';
import { recordJson, type Rendered } from './render.js';

/**
 * One change of a name as the public sees it: which version it made,
 * the kind of change, when, which fields it altered, and the record
 * after it. No actor.
 *
 * @example
 * ```ts
 * const c: PublicChange = { version: 1, op: 'create', at: 0, changed: ['status', 'locations'],
 *   record: { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', locations: [{ url: 'http://a/' }], version: 1, created: 0, updated: 0 } };
 * c.changed.includes('locations'); // true
 * ```
 */
export interface PublicChange {
  version: number;
  op: ChangeOp;
  /** Milliseconds since the epoch. */
  at: number;
  /** The fields of the record this change altered (all it has, for the first version). */
  changed: HistoryField[];
  record: NameRecord;
}

/**
 * The fields of a record a change can alter, in the order they are told.
 *
 * @example
 * ```ts
 * const f: HistoryField = 'movedTo';
 * publicHistory([{ seq: 1, key: 'urn:ex:a', version: 1, op: 'create', at: 0,
 *   record: { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b', locations: [], version: 1, created: 0, updated: 0 } }])[0].changed.includes(f); // true
 * ```
 */
export type HistoryField = 'status' | 'locations' | 'metadata' | 'movedTo' | 'permanent' | 'successor' | 'reason';

const FIELDS: readonly HistoryField[] = ['status', 'locations', 'metadata', 'movedTo', 'permanent', 'successor', 'reason'];

/** A field's value, comparable by its JSON text (an absent field and an empty list of locations differ only in a first version). */
function valueOf(r: NameRecord, f: HistoryField): string | undefined {
  const v = r[f];
  return v === undefined ? undefined : JSON.stringify(v);
}

/**
 * The public history of a name from the store's entries: each version's
 * record with the fields it altered, and nothing of who wrote it.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://a/' }] });
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', locations: [{ url: 'http://b/' }] });
 * await store.writer.put('urn:ex:a', { urn: 'urn:ex:a', status: 'withdrawn', reason: 'retracted' });
 * publicHistory(await store.history.versions('urn:ex:a')).map((c) => `${c.version} ${c.op} ${c.changed.join(',')}`);
 * // ['1 create status,locations', '2 update locations', '3 withdraw status,locations,reason']
 * await store.close();
 * ```
 */
export function publicHistory(entries: readonly HistoryEntry[]): PublicChange[] {
  const out: PublicChange[] = [];
  let prev: NameRecord | undefined;
  for (const e of entries) {
    const changed = FIELDS.filter((f) => prev === undefined ? valueOf(e.record, f) !== undefined && !(f === 'locations' && e.record.locations.length === 0) : valueOf(prev, f) !== valueOf(e.record, f));
    out.push({ version: e.version, op: e.op, at: e.at, changed, record: e.record });
    prev = e.record;
  }
  return out;
}

/** What one field of a record now says, as one line of text (bounded: a record's metadata can be 64 KiB). */
function told(r: NameRecord, f: HistoryField): string {
  switch (f) {
    case 'status': return `status: ${r.status}`;
    case 'locations': return `locations: ${r.locations.length === 0 ? '(none)' : r.locations.map((l) => l.url).join(' ')}`;
    case 'metadata': return `metadata: ${r.metadata === undefined ? '(none)' : boundedJson(r.metadata, { maxChars: 512, maxDepth: 8, maxIndent: 0 }).text.replace(/\n\s*/g, ' ')}`;
    case 'movedTo': return `moved to: ${r.movedTo ?? '(no longer)'}`;
    case 'permanent': return `permanent: ${r.permanent === true ? 'yes' : 'no'}`;
    case 'successor': return `successor: ${r.successor ?? '(none)'}`;
    case 'reason': return `reason: ${r.reason ?? '(none)'}`;
  }
}

/** The heading line of one change: version, date, kind. */
function headline(c: PublicChange): string {
  return `version ${c.version}, ${new Date(c.at).toISOString()}: ${c.op}`;
}

/** The history as lines of text: a heading per change, then what it altered, indented. */
function historyText(urn: string, changes: readonly PublicChange[]): string {
  const lines = [`History of ${urn} (${changes.length} version${changes.length === 1 ? '' : 's'}, oldest first)`];
  for (const c of changes) {
    lines.push(headline(c));
    for (const f of c.changed) lines.push(`  ${told(c.record, f)}`);
  }
  return lines.join('\n');
}

/**
 * The history of `urn` in one of the five formats: JSON (each change
 * with the record after it, as I2C shows a record), HTML (a list a
 * person reads), plain text, text/uri-list (comment lines: RFC 2483 §5),
 * and text/urc-0 (one part pointing at this history, `selfUrl`, the
 * changes as its metainformation: 1995 draft §3.4.2).
 *
 * @example
 * ```ts
 * const first: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', locations: [], version: 1, created: 0, updated: 0 };
 * const changes: PublicChange[] = [
 *   { version: 1, op: 'create', at: 0, changed: ['status'], record: first },
 *   { version: 2, op: 'withdraw', at: 60_000, changed: ['status', 'reason'], record: { ...first, status: 'withdrawn', reason: 'retracted', version: 2, updated: 60_000 } },
 * ];
 * renderHistory('urn:ex:a', changes, 'plain', '').body;
 * // 'History of urn:ex:a (2 versions, oldest first)\nversion 1, 1970-01-01T00:00:00.000Z: create\n  status: active\nversion 2, 1970-01-01T00:01:00.000Z: withdraw\n  status: withdrawn\n  reason: retracted\n'
 * JSON.parse(renderHistory('urn:ex:a', changes, 'json', '').body as string).history[1];
 * // matches { version: 2, op: 'withdraw', at: '1970-01-01T00:01:00.000Z', changed: ['status', 'reason'], record: { status: 'withdrawn', reason: 'retracted' } }
 * ```
 */
export function renderHistory(urn: string, changes: readonly PublicChange[], format: ResultFormat, selfUrl: string): Rendered {
  switch (format) {
    case 'json':
      return { format, body: `${JSON.stringify({ urn, history: changes.map((c) => ({ version: c.version, op: c.op, at: new Date(c.at).toISOString(), changed: c.changed, record: recordJson(c.record) })) })}\n` };
    case 'html': {
      const items = changes.map((c) => `<li><p><strong>Version ${c.version}</strong>, <time datetime="${new Date(c.at).toISOString()}">${new Date(c.at).toISOString()}</time>: ${escapeHtml(c.op)}</p>`
        + `<ul>${c.changed.map((f) => `<li>${escapeHtml(told(c.record, f))}</li>`).join('')}</ul></li>`).join('\n');
      return { format, body: htmlPage(`History of ${urn}`, `<h1>History of <code>${escapeHtml(urn)}</code></h1>\n<p>${htmlLink(selfUrl.replace(/\?history$/, '?info'), 'The record as it stands')}</p>\n<ol>\n${items}\n</ol>`) };
    }
    case 'urc-0':
      return { format, body: formatUrc0([{ url: selfUrl, ...urc0Meta(historyText(urn, changes)) }], { maxLineLength: Infinity }) };
    case 'uri-list':
      return { format, body: historyText(urn, changes).split('\n').map((l) => `# ${l}\r\n`).join('') };
    case 'plain':
      return { format, body: `${historyText(urn, changes)}\n` };
  }
}
