/**
 * The OAI-PMH 2.0 data provider: a request's pairs in, the response
 * document out (§3.2), over any {@link OaiRepository}. Errors are answered
 * as the protocol defines them, inside a 200 response (§3.6).
 */
import { randomBytes } from 'node:crypto';
import { EPICUR } from './epicur.js';
import { OAI_DC, urnLocationsFormat, type OaiItem, type OaiMetadataFormat } from './formats.js';
import { parseOaiRequest, type OaiError, type OaiRequest } from './protocol.js';
import { decodeResumptionToken, encodeResumptionToken, type OaiResumption } from './token.js';
import { utcDatetime, xmlAttrs, xmlElement, xmlEscape } from './xml.js';

/**
 * A list query: items with `from <= datestamp <= until`, in the set (or one
 * of its subsets), in (datestamp, identifier) order after `after`.
 *
 * @example
 * ```ts
 * const q: OaiListQuery = { set: 'urn:nbn:de', limit: 100 };
 * await new MemoryOaiRepository([]).list(q); // []
 * ```
 */
export interface OaiListQuery {
  from?: number;
  until?: number;
  set?: string;
  after?: [number, string];
  limit: number;
  /** For a format that states every state ({@link OaiMetadataFormat.everyState}): reserved names too. */
  everyState?: boolean;
}

/**
 * Where the provider reads names from.
 *
 * @example
 * ```ts
 * const repo: OaiRepository = new MemoryOaiRepository([]);
 * await repo.earliestDatestamp(); // 0
 * ```
 */
export interface OaiRepository {
  /** The oldest datestamp (ms), for Identify; 0 for an empty repository. */
  earliestDatestamp(): Promise<number>;
  list(q: OaiListQuery): Promise<OaiItem[]>;
  /** How many items the query selects, ignoring `after` and `limit` (for completeListSize). */
  count(q: OaiListQuery): Promise<number>;
  /** The item, `everyState`: a reserved one too. */
  get(identifier: string, everyState?: boolean): Promise<OaiItem | undefined>;
  sets(): Promise<Array<{ spec: string; name: string }>>;
}

/** True if the item is in `set` or one of its subsets (§2.6: sets are hierarchical, ":" separates the levels). */
function inSet(item: OaiItem, set: string | undefined): boolean {
  return set === undefined || item.sets.some((s) => s === set || s.startsWith(`${set}:`));
}

/** (datestamp, identifier) order, by seconds: datestamps are sent to the second (§3.3.2). */
function compare(a: [number, string], b: [number, string]): number {
  return Math.floor(a[0] / 1000) - Math.floor(b[0] / 1000) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);
}

/**
 * Items in memory, for tests and small stores.
 *
 * @example
 * ```ts
 * const repo = new MemoryOaiRepository([{ identifier: 'urn:ex:a', datestamp: 0, sets: ['urn:ex'], status: 'active', locations: [] }]);
 * (await repo.list({ set: 'urn', limit: 10 })).length; // 1
 * ```
 */
export class MemoryOaiRepository implements OaiRepository {
  #items: OaiItem[];
  constructor(items: OaiItem[]) {
    this.#items = [...items].sort((a, b) => compare([a.datestamp, a.identifier], [b.datestamp, b.identifier]));
  }
  async earliestDatestamp(): Promise<number> {
    return this.#items[0]?.datestamp ?? 0;
  }
  #select(q: OaiListQuery): OaiItem[] {
    return this.#items.filter((i) => (q.from === undefined || i.datestamp >= q.from) && (q.until === undefined || i.datestamp <= q.until) && inSet(i, q.set));
  }
  async list(q: OaiListQuery): Promise<OaiItem[]> {
    return this.#select(q).filter((i) => q.after === undefined || compare([i.datestamp, i.identifier], q.after) > 0).slice(0, q.limit);
  }
  async count(q: OaiListQuery): Promise<number> {
    return this.#select(q).length;
  }
  async get(identifier: string): Promise<OaiItem | undefined> {
    return this.#items.find((i) => i.identifier === identifier);
  }
  async sets(): Promise<Array<{ spec: string; name: string }>> {
    const specs = new Set<string>();
    for (const i of this.#items) for (const s of i.sets) s.split(':').forEach((_, k, parts) => specs.add(parts.slice(0, k + 1).join(':')));
    return [...specs].sort().map((spec) => ({ spec, name: `names under ${spec}` }));
  }
}

/**
 * What the Identify verb says of the repository (§4.2).
 *
 * @example
 * ```ts
 * const c: OaiConfig = { repositoryName: 'urikit resolver', baseUrl: 'https://r.example/oai', adminEmails: ['admin@r.example'], pageSize: 100 };
 * (await new OaiProvider(new MemoryOaiRepository([]), c).respond([['verb', 'Identify']], 0)).includes('<repositoryName>urikit resolver</repositoryName>'); // true
 * ```
 */
export interface OaiConfig {
  repositoryName: string;
  /** The URL of the endpoint, as the harvester reaches it (§4.2 baseURL). */
  baseUrl: string;
  adminEmails: string[];
  /** Items per page of ListIdentifiers and ListRecords before a resumption token. */
  pageSize: number;
  /**
   * The key that authenticates resumption tokens (token.ts), shared by
   * every process that answers for the same repository (a store's
   * `settings.secret`); without one, a key of this provider alone, drawn
   * at random: its tokens are refused by any other.
   */
  tokenKey?: () => Promise<Uint8Array>;
}

const ENVELOPE_OPEN = '<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">';

/** §3.2: responseDate, request (its attributes only when the request was valid), then the verb's element or the errors. */
function envelope(now: number, baseUrl: string, request: Record<string, string | undefined> | undefined, body: string): string {
  return `${ENVELOPE_OPEN}<responseDate>${utcDatetime(now)}</responseDate><request${request ? xmlAttrs(request) : ''}>${xmlEscape(baseUrl)}</request>${body}</OAI-PMH>\n`;
}

function errorsXml(errors: OaiError[]): string {
  return errors.map((e) => `<error code="${e.code}">${xmlEscape(e.message)}</error>`).join('');
}

/**
 * True if the item is a deleted record in `format` (§2.5.1): a withdrawn
 * name, unless the format states every state (its record is the
 * tombstone: §2.5 a record is the metadata of an item in one format).
 */
function deletedIn(item: OaiItem, format: OaiMetadataFormat): boolean {
  return item.status === 'withdrawn' && format.everyState !== true;
}

/** §4.3: a header; a withdrawn name is a deleted record (§2.5.1) with status="deleted". */
function headerXml(item: OaiItem, format: OaiMetadataFormat): string {
  const status = deletedIn(item, format) ? ' status="deleted"' : '';
  return `<header${status}>${xmlElement('identifier', item.identifier)}${xmlElement('datestamp', utcDatetime(item.datestamp))}${item.sets.map((s) => xmlElement('setSpec', s)).join('')}</header>`;
}

/** §2.5: a record; a deleted one has no metadata. */
function recordXml(item: OaiItem, format: OaiMetadataFormat): string {
  const metadata = deletedIn(item, format) ? '' : `<metadata>${format.render(item)}</metadata>`;
  return `<record>${headerXml(item, format)}${metadata}</record>`;
}

/**
 * The provider: answers one request with the response document.
 *
 * @example
 * ```ts
 * const provider = new OaiProvider(new MemoryOaiRepository([]), { repositoryName: 'r', baseUrl: 'http://r.example/oai', adminEmails: ['a@r.example'], pageSize: 10 });
 * (await provider.respond([['verb', 'ListSets']], 0)).includes('<error code="noSetHierarchy">'); // true
 * ```
 */
export class OaiProvider {
  readonly formats: OaiMetadataFormat[];
  readonly #tokenKey: () => Promise<Uint8Array>;
  constructor(readonly repo: OaiRepository, readonly config: OaiConfig, extraFormats: OaiMetadataFormat[] = []) {
    this.formats = [OAI_DC, urnLocationsFormat(config.baseUrl), EPICUR, ...extraFormats];
    const own = randomBytes(32);
    this.#tokenKey = config.tokenKey ?? (async () => own);
  }

  /** The response to a request given as name/value pairs (from the query string or a form body). */
  async respond(pairs: Iterable<readonly [string, string]>, now = Date.now()): Promise<string> {
    const req = parseOaiRequest(pairs);
    if (Array.isArray(req)) return envelope(now, this.config.baseUrl, undefined, errorsXml(req));
    const echo = { verb: req.verb, ...req.args };
    const body = await this.#answer(req);
    return envelope(now, this.config.baseUrl, echo, typeof body === 'string' ? body : errorsXml(body));
  }

  #format(prefix: string): OaiMetadataFormat | OaiError[] {
    return this.formats.find((f) => f.prefix === prefix) ?? [{ code: 'cannotDisseminateFormat', message: `${prefix} is not a metadata format of this repository` }];
  }

  async #answer(req: OaiRequest): Promise<string | OaiError[]> {
    switch (req.verb) {
      case 'Identify': {
        const c = this.config;
        return `<Identify>${xmlElement('repositoryName', c.repositoryName)}${xmlElement('baseURL', c.baseUrl)}<protocolVersion>2.0</protocolVersion>${c.adminEmails.map((e) => xmlElement('adminEmail', e)).join('')}${xmlElement('earliestDatestamp', utcDatetime(await this.repo.earliestDatestamp()))}<deletedRecord>persistent</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>`;
      }
      case 'ListMetadataFormats': {
        if (req.args.identifier !== undefined && (await this.repo.get(req.args.identifier, true)) === undefined) return [{ code: 'idDoesNotExist', message: `${req.args.identifier} is not in this repository` }];
        return `<ListMetadataFormats>${this.formats.map((f) => `<metadataFormat>${xmlElement('metadataPrefix', f.prefix)}${xmlElement('schema', f.schema)}${xmlElement('metadataNamespace', f.namespace)}</metadataFormat>`).join('')}</ListMetadataFormats>`;
      }
      case 'ListSets': {
        if (req.args.resumptionToken !== undefined) return [{ code: 'badResumptionToken', message: 'ListSets is answered in one response: there is no token to resume' }];
        const sets = await this.repo.sets();
        if (sets.length === 0) return [{ code: 'noSetHierarchy', message: 'this repository has no sets' }];
        return `<ListSets>${sets.map((s) => `<set>${xmlElement('setSpec', s.spec)}${xmlElement('setName', s.name)}</set>`).join('')}</ListSets>`;
      }
      case 'GetRecord': {
        const format = this.#format(req.args.metadataPrefix!);
        if (Array.isArray(format)) return format;
        const item = await this.repo.get(req.args.identifier!, format.everyState === true);
        if (item === undefined) return [{ code: 'idDoesNotExist', message: `${req.args.identifier} is not in this repository` }];
        return `<GetRecord>${recordXml(item, format)}</GetRecord>`;
      }
      case 'ListIdentifiers':
      case 'ListRecords':
        return this.#list(req);
    }
  }

  async #list(req: OaiRequest): Promise<string | OaiError[]> {
    let state: OaiResumption;
    if (req.args.resumptionToken !== undefined) {
      const t = decodeResumptionToken(req.args.resumptionToken, await this.#tokenKey());
      if (t === undefined || t.verb !== req.verb) return [{ code: 'badResumptionToken', message: 'this resumption token was not issued for this request' }];
      state = t;
    } else {
      state = { verb: req.verb, metadataPrefix: req.args.metadataPrefix!, after: [-1, ''], cursor: 0 };
      if (req.from !== undefined) state.from = req.from;
      if (req.until !== undefined) state.until = req.until;
      if (req.args.set !== undefined) state.set = req.args.set;
    }
    const format = this.#format(state.metadataPrefix);
    if (Array.isArray(format)) return format;
    if (state.set !== undefined && (await this.repo.sets()).length === 0) return [{ code: 'noSetHierarchy', message: 'this repository has no sets' }];
    const q: OaiListQuery = { limit: this.config.pageSize + 1, ...(format.everyState === true ? { everyState: true } : {}) };
    if (state.from !== undefined) q.from = state.from;
    if (state.until !== undefined) q.until = state.until;
    if (state.set !== undefined) q.set = state.set;
    if (state.cursor > 0) q.after = state.after;
    const items = await this.repo.list(q);
    if (items.length === 0 && state.cursor === 0) return [{ code: 'noRecordsMatch', message: 'no names match these arguments' }];
    const page = items.slice(0, this.config.pageSize);
    const total = state.total ?? (await this.repo.count({ ...q, limit: 0 }));
    const more = items.length > this.config.pageSize;
    let token = '';
    if (more) {
      const last = page[page.length - 1]!;
      token = encodeResumptionToken({ ...state, after: [last.datestamp, last.identifier], cursor: state.cursor + page.length, total }, await this.#tokenKey());
    }
    // §3.5: the last response of a list carries an empty resumptionToken element
    const resumption = more || state.cursor > 0 ? `<resumptionToken${xmlAttrs({ completeListSize: total > 0 ? total : undefined, cursor: state.cursor })}>${token}</resumptionToken>` : '';
    const rows = req.verb === 'ListRecords' ? page.map((i) => recordXml(i, format)).join('') : page.map((i) => headerXml(i, format)).join('');
    return `<${req.verb}>${rows}${resumption}</${req.verb}>`;
  }
}
