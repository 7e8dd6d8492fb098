/**
 * One OAI-PMH 2.0 response as a harvester reads it (§3.2): the
 * responseDate, the errors (§3.6), Identify's granularity (§4.2), and of a
 * ListRecords or GetRecord response each record's header (§2.5: identifier,
 * datestamp, setSpecs, status="deleted") and its metadata as a flat list
 * of elements, then the resumptionToken (§3.5). It is an
 * {@link XmlHandler}: the response is read as it streams in, each record
 * keeps at most so many elements (a record of ten thousand URLs is
 * marked too large, not held), and a page at most so many records.
 */
import type { XmlHandler, XmlName } from './xml-scanner.js';

/**
 * The OAI-PMH 2.0 namespace.
 *
 * @example
 * ```ts
 * OAI_NS.endsWith('/OAI/2.0/'); // true
 * ```
 */
export const OAI_NS = 'http://www.openarchives.org/OAI/2.0/';

/**
 * One element of a record's metadata: its path of local names from the
 * metadata's root (`epicur/record/identifier`), namespace, attributes and
 * own text, trimmed.
 *
 * @example
 * ```ts
 * const leaf: MetadataElement = { path: 'dc/identifier', ns: 'http://purl.org/dc/elements/1.1/', attrs: new Map(), text: 'urn:nbn:de:101-1' };
 * leaf.path.endsWith('/identifier'); // true
 * ```
 */
export interface MetadataElement {
  path: string;
  ns: string;
  attrs: ReadonlyMap<string, string>;
  text: string;
}

/**
 * A record as harvested: its header and its metadata's elements; `tooLarge`
 * when it had more elements (or longer text) than a record may.
 *
 * @example
 * ```ts
 * const r: HarvestedRecord = { identifier: 'oai:repo.example:1', datestamp: '2026-11-28', deleted: false, sets: [], metadata: [] };
 * r.deleted; // false
 * ```
 */
export interface HarvestedRecord {
  identifier: string;
  datestamp: string;
  deleted: boolean;
  sets: string[];
  metadata: MetadataElement[];
  tooLarge?: string;
}

/**
 * A response: what a harvester needs of it.
 *
 * @example
 * ```ts
 * const p: OaiPage = { errors: [{ code: 'noRecordsMatch', message: '' }], records: [] };
 * p.errors[0]?.code; // 'noRecordsMatch'
 * ```
 */
export interface OaiPage {
  responseDate?: string;
  errors: Array<{ code: string; message: string }>;
  records: HarvestedRecord[];
  /** The token's text ('' on the last page of a list) and its attributes; absent when the list has one page. */
  resumptionToken?: { token: string; cursor?: string; completeListSize?: string };
  /** Identify's answer (§4.2). */
  identify?: { granularity?: string; earliestDatestamp?: string; repositoryName?: string; protocolVersion?: string };
}

/**
 * How much of a record is kept.
 *
 * @example
 * ```ts
 * DEFAULT_RECORD_LIMITS.maxElements; // 2000
 * ```
 */
export interface RecordLimits {
  /** Elements of one record's metadata. */
  maxElements: number;
  /** Characters of one element's text. */
  maxText: number;
  /** Records of one page (what a page holds until it is written). */
  maxRecords: number;
}

/**
 * 2,000 elements and 8 KiB of text an element; 10,000 records a page.
 *
 * @example
 * ```ts
 * DEFAULT_RECORD_LIMITS.maxText; // 8192
 * ```
 */
export const DEFAULT_RECORD_LIMITS: RecordLimits = Object.freeze({ maxElements: 2000, maxText: 8192, maxRecords: 10_000 });

/**
 * A response that is XML but that a harvester does not read: not an
 * OAI-PMH 2.0 document (`not-oai-pmh`), or a page of more records than a
 * page may hold (`too-many-records`).
 *
 * @example
 * ```ts
 * const s = new XmlScanner(new OaiPageReader());
 * s.write('<html xmlns="http://www.w3.org/1999/xhtml"/>'); // throws OaiResponseError not-oai-pmh
 * ```
 */
export class OaiResponseError extends Error {
  override readonly name = 'OaiResponseError';
  constructor(readonly code: 'not-oai-pmh' | 'too-many-records', message: string) {
    super(message);
  }
}

const RECORD_VERBS = new Set(['ListRecords', 'GetRecord']);
const HEADER_FIELDS = new Set(['identifier', 'datestamp', 'setSpec']);
const IDENTIFY_FIELDS = new Set(['granularity', 'earliestDatestamp', 'repositoryName', 'protocolVersion']);

/**
 * Reads one response into an {@link OaiPage}.
 *
 * @example
 * ```ts
 * const reader = new OaiPageReader();
 * const s = new XmlScanner(reader);
 * s.write('<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/"><responseDate>2026-11-28T10:00:00Z</responseDate><request>x</request>'
 *   + '<ListRecords><record><header status="deleted"><identifier>oai:r:1</identifier><datestamp>2026-11-28</datestamp></header></record>'
 *   + '<resumptionToken cursor="0">t1</resumptionToken></ListRecords></OAI-PMH>');
 * s.end();
 * reader.page.records[0]?.deleted; // true
 * reader.page.resumptionToken?.token; // 't1'
 * ```
 */
export class OaiPageReader implements XmlHandler {
  readonly page: OaiPage = { errors: [], records: [] };
  readonly #limits: RecordLimits;
  /** The local names of the open elements down to (not into) a record's metadata. */
  #path: string[] = [];
  #text = '';
  #record: HarvestedRecord | undefined;
  /** Inside a record's metadata: the open elements' paths, attributes and text. */
  #meta: Array<{ path: string; ns: string; attrs: ReadonlyMap<string, string>; text: string }> = [];
  #metaDepth = 0;
  #errorCode = '';
  #tokenAttrs: ReadonlyMap<string, string> | undefined;

  constructor(limits: RecordLimits = DEFAULT_RECORD_LIMITS) {
    this.#limits = limits;
  }

  open(name: XmlName, attrs: ReadonlyMap<string, string>): void {
    if (this.#metaDepth > 0) {
      this.#metaDepth++;
      const parent = this.#meta[this.#meta.length - 1];
      this.#meta.push({ path: parent === undefined ? name.local : `${parent.path}/${name.local}`, ns: name.ns, attrs, text: '' });
      return;
    }
    const depth = this.#path.length;
    if (depth === 0 && (name.ns !== OAI_NS || name.local !== 'OAI-PMH')) throw new OaiResponseError('not-oai-pmh', `the response is <${name.local}> in ${name.ns === '' ? 'no namespace' : name.ns}, not an OAI-PMH 2.0 document`);
    this.#path.push(name.local);
    this.#text = '';
    const [, verb, unit] = this.#path;
    if (depth === 1 && name.local === 'error') this.#errorCode = attrs.get('code') ?? '';
    if (depth === 2 && verb !== undefined && RECORD_VERBS.has(verb) && name.local === 'record') {
      if (this.page.records.length >= this.#limits.maxRecords) throw new OaiResponseError('too-many-records', `the page has more than ${this.#limits.maxRecords} records`);
      this.#record = { identifier: '', datestamp: '', deleted: false, sets: [], metadata: [] };
    }
    if (depth === 2 && name.local === 'resumptionToken') this.#tokenAttrs = attrs;
    if (depth === 3 && unit === 'record' && name.local === 'header') this.#record!.deleted = attrs.get('status') === 'deleted';
    if (depth === 3 && unit === 'record' && name.local === 'metadata') this.#metaDepth = 1;
  }

  text(text: string): void {
    if (this.#metaDepth > 1) {
      const top = this.#meta[this.#meta.length - 1]!;
      if (top.text.length + text.length > this.#limits.maxText) this.#tooLarge(`an element of the record has more than ${this.#limits.maxText} characters`);
      else top.text += text;
      return;
    }
    if (this.#metaDepth === 0 && this.#text.length < 65536) this.#text += text;
  }

  close(name: XmlName): void {
    if (this.#metaDepth > 0) {
      this.#metaDepth--;
      if (this.#metaDepth === 0) { this.#path.pop(); return; }
      const el = this.#meta.pop()!;
      const r = this.#record!;
      if (r.tooLarge !== undefined) return;
      if (r.metadata.length >= this.#limits.maxElements) return this.#tooLarge(`the record has more than ${this.#limits.maxElements} elements`);
      r.metadata.push({ path: el.path, ns: el.ns, attrs: el.attrs, text: el.text.trim() });
      return;
    }
    const depth = this.#path.length - 1;
    const [, verb, unit, part] = this.#path;
    const text = this.#text.trim();
    const p = this.page;
    if (depth === 1 && name.local === 'responseDate') p.responseDate = text;
    if (depth === 1 && name.local === 'error') p.errors.push({ code: this.#errorCode, message: text });
    if (depth === 2 && verb === 'Identify' && IDENTIFY_FIELDS.has(name.local)) (p.identify ??= {})[name.local as 'granularity'] = text;
    if (depth === 1 && name.local === 'Identify') p.identify ??= {};
    if (depth === 2 && name.local === 'resumptionToken') {
      p.resumptionToken = { token: text };
      const cursor = this.#tokenAttrs?.get('cursor');
      const size = this.#tokenAttrs?.get('completeListSize');
      if (cursor !== undefined) p.resumptionToken.cursor = cursor;
      if (size !== undefined) p.resumptionToken.completeListSize = size;
    }
    if (depth === 4 && unit === 'record' && part === 'header' && HEADER_FIELDS.has(name.local) && this.#record !== undefined) {
      if (name.local === 'identifier') this.#record.identifier = text;
      else if (name.local === 'datestamp') this.#record.datestamp = text;
      else if (this.#record.sets.length < 100) this.#record.sets.push(text);
    }
    if (depth === 2 && name.local === 'record' && this.#record !== undefined) {
      p.records.push(this.#record);
      this.#record = undefined;
    }
    this.#path.pop();
    this.#text = '';
  }

  /** The record is refused, its metadata let go: a record's memory stays bounded. */
  #tooLarge(why: string): void {
    const r = this.#record!;
    r.tooLarge ??= why;
    r.metadata = [];
  }
}
