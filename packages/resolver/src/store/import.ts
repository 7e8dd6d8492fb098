/**
 * Bulk import of names (the admin API of DESIGN.md): NDJSON or CSV, all in one
 * transaction, all or nothing, with a report of every bad line;
 * re-running the same file changes nothing (idempotent).
 */
import { CsvReader } from './csv.js';
import { inAuthority } from './keys.js';
import type { Store } from './store.js';
import type { NameInput } from './types.js';
import { jsonTooDeepAt } from '../formats/json-depth.js';
import { SeenKeys } from './seen-keys.js';
import { InputError, MAX_METADATA_DEPTH, validateNameInput } from './validate.js';

/**
 * What an import did, or why it did nothing: `ok` false means not one
 * name was written, and `errors` lists every bad line.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * // One bad line (line 3: the NID "a" is too short), so nothing is written.
 * const csv = 'urn,url\r\nurn:isbn:0451450523,https://openlibrary.org/isbn/0451450523\r\nurn:a:x,http://a/\r\n';
 * const r: ImportReport = await importNames(store, csv, { format: 'csv' });
 * r // matches { ok: false, records: 2, created: 0, updated: 0, unchanged: 0, errors: [{ line: 3, code: 'bad-nid', offset: 5 }] }
 * await store.names.get('urn:isbn:0451450523') // undefined
 * await store.close();
 * ```
 */
export interface ImportReport {
  ok: boolean;
  /** Records read (a CSV name over several rows counts once). */
  records: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: Array<{ line: number; message: string; code?: string; offset?: number; pointer?: string }>;
}

/**
 * Options of {@link importNames}: the format, and the authority prefix a
 * token may write under (a token writes only the names under its prefix).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const opts: ImportOptions = { format: 'csv', authority: 'urn:isbn' };
 * await importNames(store, 'urn,url\r\nurn:issn:0167-6423,http://a/\r\n', opts);
 * // matches { ok: false, created: 0, errors: [{ line: 2, code: 'forbidden' }] }
 * await store.close();
 * ```
 */
export interface ImportOptions {
  format: 'ndjson' | 'csv';
  /** Only names under this canonical authority prefix may be written ('' or absent: all). */
  authority?: string;
  /** Recorded in the history as who made the change. */
  actor?: string;
  /** Stop reporting after this many errors (default 1000); the import fails either way. */
  maxErrors?: number;
  /** Called after each batch is written inside the transaction, with the records read so far. */
  onProgress?: (records: number) => void;
  /** The schemes locations may have (default `DEFAULT_LOCATION_SCHEMES`, see `validateNameInput`). */
  schemes?: ReadonlySet<string>;
}

/** Names per batch handed to the writer. */
const BATCH = 1000;

/** A signal to roll the transaction back. */
class Rollback extends Error {}

const CSV_COLUMNS = new Set(['urn', 'url', 'mediatype', 'charset', 'language', 'meta', 'preference', 'status', 'movedto', 'successor', 'reason', 'permanent']);

/** A raw record with its first line, or why it is not one. */
type RawRecord = { line: number; value?: unknown; error?: string };

/**
 * Raw records with their first line, from NDJSON or CSV text chunks,
 * the records of a chunk at once: one step of an async generator per
 * record cost more than parsing a short record does.
 */
async function* rawRecords(input: AsyncIterable<string | Uint8Array> | string, format: 'ndjson' | 'csv'): AsyncGenerator<RawRecord[]> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const decoder = {
    decode(bytes?: Uint8Array, opts?: { stream: boolean }): string {
      try { return utf8.decode(bytes, opts); } catch { throw new InputError('the body is not UTF-8', 'bad-utf8'); }
    },
  };
  const chunks: AsyncIterable<string | Uint8Array> = typeof input === 'string' ? [input] as unknown as AsyncIterable<string> : input;
  if (format === 'ndjson') {
    let rest = '';
    let line = 0;
    const lineRecord = (text: string) => {
      line++;
      const t = text.endsWith('\r') ? text.slice(0, -1) : text;
      if (t.trim() === '') return undefined;
      // A record nests at most one level more than its metadata (validate.ts); deeper is refused unparsed.
      const deep = jsonTooDeepAt(t, MAX_METADATA_DEPTH + 1);
      if (deep >= 0) return { line, error: `nested more than ${MAX_METADATA_DEPTH + 1} levels deep at offset ${deep}` };
      try { return { line, value: JSON.parse(t) as unknown }; } catch (e) { return { line, error: `not JSON: ${(e as Error).message}` }; }
    };
    for await (const chunk of chunks) {
      rest += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      let nl: number;
      let start = 0;
      const out: RawRecord[] = [];
      while ((nl = rest.indexOf('\n', start)) >= 0) {
        const r = lineRecord(rest.slice(start, nl));
        if (r) out.push(r);
        start = nl + 1;
      }
      rest = rest.slice(start);
      if (out.length > 0) yield out;
    }
    rest += decoder.decode();
    if (rest.length > 0) { const r = lineRecord(rest); if (r) yield [r]; }
    return;
  }
  const reader = new CsvReader();
  let header: string[] | undefined;
  let pending: { line: number; value: { urn: string; locations: Array<Record<string, string>>; [k: string]: unknown } } | undefined;
  const rows = function* (): Generator<RawRecord> {
    for (const rec of reader.take()) {
      if (!header) {
        header = rec.fields.map((f) => f.trim().toLowerCase());
        const unknown = header.find((h) => !CSV_COLUMNS.has(h));
        if (unknown !== undefined || !header.includes('urn')) {
          yield { line: rec.line, error: unknown !== undefined ? `unknown column "${unknown}"` : 'the header needs a "urn" column' };
          header = [];
        }
        continue;
      }
      const o: Record<string, string> = {};
      header.forEach((h, i) => { const v = rec.fields[i]; if (v !== undefined && v !== '') o[h] = v; });
      if (rec.fields.length !== header.length) { yield { line: rec.line, error: `${rec.fields.length} fields where the header has ${header.length}` }; continue; }
      const loc: Record<string, string> = {};
      for (const [k, f] of [['url', 'url'], ['mediatype', 'mediaType'], ['charset', 'charset'], ['language', 'language'], ['meta', 'meta'], ['preference', 'preference']] as const) if (o[k] !== undefined) loc[f] = o[k];
      // RFC 4180 has no multi-valued field: a name with several locations is several rows in a row.
      if (pending && o.urn === pending.value.urn) {
        if (loc.url !== undefined) pending.value.locations.push(loc);
        continue;
      }
      if (pending) yield pending;
      const value: { urn: string; locations: Array<Record<string, string>>; [k: string]: unknown } = { urn: o.urn ?? '', locations: loc.url !== undefined ? [loc] : [] };
      for (const [k, f] of [['status', 'status'], ['movedto', 'movedTo'], ['successor', 'successor'], ['reason', 'reason']] as const) if (o[k] !== undefined) value[f] = o[k];
      if (o.permanent !== undefined) value.permanent = o.permanent === 'true';
      pending = { line: rec.line, value };
    }
  };
  // The records before a syntax error, then the error: nothing after it is read.
  let broken = false;
  const take = (): RawRecord[] => {
    const out: RawRecord[] = [];
    try {
      for (const r of rows()) out.push(r);
    } catch (e) {
      out.push({ line: 0, error: (e as Error).message });
      broken = true;
    }
    return out;
  };
  try {
    for await (const chunk of chunks) {
      reader.push(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
      yield take();
      if (broken) return;
    }
    reader.push(decoder.decode());
    reader.end();
  } catch (e) {
    yield [{ line: 0, error: (e as Error).message }];
    return;
  }
  yield take();
  if (broken) return;
  if (pending) yield [pending];
}

/**
 * Imports names from NDJSON (one JSON record per line, as the admin API
 * takes them) or CSV (header row with `urn,url[,mediaType,charset,
 * language,meta,preference,status,movedTo,successor,reason,permanent]`; a
 * name with several locations is several consecutive rows) in one
 * transaction: if any line is bad nothing is written and the report lists
 * every bad line. Importing the same data again changes nothing.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const ndjson = '{"urn":"urn:isbn:0451450523","locations":["https://openlibrary.org/isbn/0451450523"]}\n';
 * await importNames(store, ndjson, { format: 'ndjson' }); // matches { ok: true, records: 1, created: 1 }
 * await importNames(store, ndjson, { format: 'ndjson' }); // matches { ok: true, unchanged: 1 } (idempotent)
 * await importNames(store, '{"urn":"urn:a:x"}\n', { format: 'ndjson' }); // matches { ok: false, errors: [{ line: 1, code: 'bad-nid' }] }
 * await store.close();
 * ```
 */
export async function importNames(store: Store, input: AsyncIterable<string | Uint8Array> | string, opts: ImportOptions): Promise<ImportReport> {
  const report: ImportReport = { ok: true, records: 0, created: 0, updated: 0, unchanged: 0, errors: [] };
  const maxErrors = opts.maxErrors ?? 1000;
  const authority = opts.authority ?? '';
  let failed = false;
  const fail = (line: number, message: string, code?: string, offset?: number, pointer?: string) => {
    failed = true;
    if (report.errors.length < maxErrors) report.errors.push({ line, message, ...(code !== undefined ? { code } : {}), ...(offset !== undefined ? { offset } : {}), ...(pointer !== undefined ? { pointer } : {}) });
  };
  try {
    await store.writer.bulk(async (writer) => {
      const seen = new SeenKeys();
      let batch: Array<{ key: string; input: NameInput }> = [];
      let lines: number[] = [];
      const flush = async () => {
        const c = await writer.write(batch, opts.actor);
        report.created += c.created; report.updated += c.updated; report.unchanged += c.unchanged;
        if (c.refused.length > 0) {
          const lineOf = new Map(batch.map((b, i) => [b.key, lines[i]!]));
          for (const e of c.refused) fail(lineOf.get(e.key) ?? 0, e.message, e.code);
        }
        batch = [];
        lines = [];
        opts.onProgress?.(report.records);
      };
      const validateOpts = opts.schemes !== undefined ? { schemes: opts.schemes } : {};
      for await (const recs of rawRecords(input, opts.format)) {
        for (const rec of recs) {
          report.records++;
          if (rec.error !== undefined) { fail(rec.line, rec.error); continue; }
          let checked: { key: string; input: NameInput };
          try {
            checked = validateNameInput(rec.value, validateOpts);
          } catch (e) {
            if (e instanceof InputError) { fail(rec.line, e.message, e.code, e.offset, e.pointer); continue; }
            throw e;
          }
          if (!inAuthority(checked.key, authority)) { fail(rec.line, `${checked.key} is outside this token's authority ${authority}`, 'forbidden'); continue; }
          const first = seen.firstLine(checked.key, rec.line);
          if (first !== undefined) { fail(rec.line, `${checked.key} already appears on line ${first}`, 'duplicate'); continue; }
          // After a failure the rest is only checked: nothing will be kept.
          if (failed) continue;
          batch.push(checked);
          lines.push(rec.line);
          if (batch.length >= BATCH) await flush();
        }
      }
      if (!failed) await flush();
      if (failed) throw new Rollback();
    }, { distinctKeys: true });
  } catch (e) {
    if (!(e instanceof Rollback)) throw e;
  }
  if (failed) {
    report.ok = false;
    report.created = report.updated = report.unchanged = 0;
  }
  return report;
}
