/**
 * The OAI-PMH 2.0 harvester: Identify (§4.2: the repository's clock and
 * granularity), then ListRecords from where the last finished harvest
 * began (§3.3.1 `from`, inclusive: a record changed at that moment is
 * read again, never missed), following resumption tokens (§3.5) to the
 * empty one. Each page's records and the harvest's position after them
 * are written in one transaction: a harvest interrupted anywhere resumes
 * with the token of the first page not written, or, if the repository no
 * longer knows that token (badResumptionToken), lists again from the same
 * `from` (records written already are unchanged: nothing is doubled).
 * What a repository answers is bounded: bytes a response, pages a
 * harvest, a token never seen twice, redirects, the wait it asks for
 * (503 Retry-After, §3.1.2.1).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DEFAULT_HARVEST_LEASE_MS } from '../defaults/index.js';
import { parseUtcDatetime } from '../oai/protocol.js';
import { authorityPrefix } from '../store/keys.js';
import type { HarvestRefusal, HarvestRun, HarvestState } from '../store/harvest-log.js';
import type { Store } from '../store/store.js';
import type { WriteScope } from '../store/db.js';
import { applyPage } from './apply.js';
import { DEFAULT_HARVEST_FETCH, fetchOai, FetchError, type HarvestFetchOptions } from './fetch.js';
import { OaiPageReader, OaiResponseError, type OaiPage } from './oai-page.js';
import type { HarvestFormat } from './record-names.js';
import { XmlError, XmlScanner } from './xml-scanner.js';

/**
 * A repository to harvest: its base URL (§4.2 baseURL), the metadata
 * format, the set (§2.6) if only one, and the authority prefix it may
 * write names under.
 *
 * @example
 * ```ts
 * const s: HarvestSource = { baseUrl: 'https://repo.example/oai', metadataPrefix: 'epicur', set: 'doc-type:article', authority: 'urn:nbn:de:101' };
 * harvestKey(s); // 'https://repo.example/oai epicur doc-type:article'
 * ```
 */
export interface HarvestSource {
  baseUrl: string;
  metadataPrefix: HarvestFormat;
  set?: string;
  authority: string;
  /** A mirror's harvest (`urn_locations` only): every record taken whole (apply.ts). */
  mirror?: boolean;
}

/**
 * How a harvest runs.
 *
 * @example
 * ```ts
 * const o: HarvestOptions = { fetch: { allowAddresses: 'all' }, pageDelayMs: 0 };
 * o.pageDelayMs; // 0
 * ```
 */
export interface HarvestOptions {
  fetch?: Partial<HarvestFetchOptions>;
  /** The least time between two requests to the repository (default 1000 ms, as the link checker's per host). */
  pageDelayMs?: number;
  /** The most pages one harvest reads (default 100,000). */
  maxPages?: number;
  /** How often a 503 is waited out for one request (default 5). */
  maxRetries?: number;
  /** The longest Retry-After waited for (default 1 hour); a longer one ends the harvest, to be resumed later. */
  maxRetryAfterMs?: number;
  /** The most URLs a record may deliver (default 100, as a name's locations). */
  maxUrls?: number;
  /** Start at this `from` (§3.3.1) instead of where the last harvest left off. */
  from?: string;
  /** The schemes a location may have (default the store's). */
  schemes?: ReadonlySet<string>;
  /** The refusals kept per repository, the newest (default 10,000). */
  keepRefusals?: number;
  /** How long the repository's lease holds unrenewed (default 10 minutes): one harvest of a repository at a time, across processes. */
  leaseMs?: number;
  /** Called after each page is written (the number of pages of this harvest so far). */
  onPage?: (pages: number) => void | Promise<void>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/**
 * What a harvest did: its outcome, `from`, counts, and the refusals it
 * recorded (the newest hundred).
 *
 * @example
 * ```ts
 * const r: HarvestReport = { repo: 'r', status: 'ok', pages: 1, applied: 3, unchanged: 0, refused: 0, refusals: [] };
 * r.status; // 'ok'
 * ```
 */
export interface HarvestReport {
  repo: string;
  /** `busy`: another process holds the repository's lease (harvests it now): nothing was done. */
  status: 'ok' | 'failed' | 'busy';
  from?: string;
  pages: number;
  applied: number;
  unchanged: number;
  refused: number;
  error?: { code: string; message: string };
  refusals: HarvestRefusal[];
}

/**
 * A repository's key in the store: base URL, format, set.
 *
 * @example
 * ```ts
 * harvestKey({ baseUrl: 'https://repo.example/oai', metadataPrefix: 'oai_dc' }); // 'https://repo.example/oai oai_dc'
 * ```
 */
export function harvestKey(s: Omit<HarvestSource, 'authority'>): string {
  return [s.baseUrl, s.metadataPrefix, ...(s.set !== undefined ? [s.set] : [])].join(' ');
}

/** A harvest that cannot go on: its code and reason. */
class HarvestFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** The lease expired and another process took the repository over: this harvest writes nothing more. */
class LeaseLost extends Error {}

/** Who holds a lease: the machine, the process, and one harvest of it. */
function leaseHolder(): string {
  return `${hostname()} pid ${process.pid} ${randomUUID().slice(0, 8)}`;
}

// §4.2: the two granularities a repository may declare
const GRANULARITY: Record<string, 'day' | 'second'> = { 'YYYY-MM-DD': 'day', 'YYYY-MM-DDThh:mm:ssZ': 'second' };

/** A UTCdatetime in a granularity (§3.3.1). */
function inGranularity(datetime: string, g: 'day' | 'second'): string {
  return g === 'day' ? datetime.slice(0, 10) : datetime;
}

const sleepMs = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Harvests one repository into the store and records the outcome in
 * `store.harvestLog`; never throws for what the repository answers (a
 * failure is the report's `error`), only for the store's own faults.
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * // A repository on the loopback address is not reached unless allowed (the link checker's rule).
 * (await harvestRepository(store, { baseUrl: 'http://127.0.0.1:1/oai', metadataPrefix: 'epicur', authority: 'urn:nbn:de:101' })).error?.code; // 'blocked-address (loopback)'
 * await store.close();
 * ```
 */
export async function harvestRepository(store: Store, source: HarvestSource, opts: HarvestOptions = {}): Promise<HarvestReport> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? sleepMs;
  const repo = harvestKey(source);
  const authority = authorityPrefix(source.authority);
  const leaseMs = opts.leaseMs ?? DEFAULT_HARVEST_LEASE_MS;
  const holder = leaseHolder();
  // One harvest of a repository at a time, whichever process runs it (serve's job, urikit harvest from cron).
  const lease = await store.harvestLog.acquireLease(repo, holder, now(), leaseMs);
  if (!lease.acquired) {
    const message = `${lease.holder} harvests this repository now (its lease holds until ${new Date(lease.expires).toISOString()}): nothing was done`;
    return { repo, status: 'busy', pages: 0, applied: 0, unchanged: 0, refused: 0, error: { code: 'harvest-busy', message }, refusals: [] };
  }
  try {
    return await harvestHeld(store, source, opts, { repo, authority, holder, leaseMs, now, sleep });
  } catch (e) {
    if (!(e instanceof LeaseLost)) throw e;
    const message = 'the lease on this repository expired and another process took the harvest over: it resumes there';
    return { repo, status: 'busy', pages: 0, applied: 0, unchanged: 0, refused: 0, error: { code: 'lease-lost', message }, refusals: [] };
  } finally {
    await store.harvestLog.releaseLease(repo, holder);
  }
}

/** The harvest itself, under the repository's lease: every write checks that it still holds it. */
async function harvestHeld(store: Store, source: HarvestSource, opts: HarvestOptions,
  held: { repo: string; authority: string; holder: string; leaseMs: number; now: () => number; sleep: (ms: number) => Promise<void> }): Promise<HarvestReport> {
  const { repo, authority, holder, leaseMs, now, sleep } = held;
  const fetchOpts: HarvestFetchOptions = { ...DEFAULT_HARVEST_FETCH, ...opts.fetch };
  const renewIn = async (w: WriteScope, ms = leaseMs) => {
    if (!await store.harvestLog.renewLeaseIn(w, repo, holder, now(), ms)) throw new LeaseLost();
  };
  const state: HarvestState = (await store.harvestLog.get(repo)) ?? { repo, baseUrl: source.baseUrl, metadataPrefix: source.metadataPrefix, authority, totals: { harvests: 0, applied: 0, refused: 0 } };
  state.authority = authority;
  if (source.set !== undefined) state.set = source.set;
  const began = now();
  let lastRequest = 0;
  const ask = async (args: Record<string, string>): Promise<OaiPage> => {
    const url = new URL(source.baseUrl);
    for (const [k, v] of Object.entries(args)) url.searchParams.set(k, v);
    for (let attempt = 0; ; attempt++) {
      // polite pacing: one request at a time, pageDelayMs apart
      const wait = lastRequest + (opts.pageDelayMs ?? 1000) - now();
      if (lastRequest > 0 && wait > 0) await sleep(wait);
      lastRequest = now();
      const reader = new OaiPageReader();
      const scanner = new XmlScanner(reader);
      let answer: Awaited<ReturnType<typeof fetchOai>>;
      try {
        answer = await fetchOai(url, (text) => scanner.write(text), fetchOpts);
        if (answer.status !== 503) scanner.end();
      } catch (e) {
        if (e instanceof XmlError) throw new HarvestFailure(e.code, `the response to ${args.verb} is not well-formed XML: ${e.message}`);
        if (e instanceof OaiResponseError) throw new HarvestFailure(e.code, e.message);
        if (e instanceof FetchError) throw new HarvestFailure(e.code, e.message);
        throw e;
      }
      if (answer.status !== 503) return reader.page;
      // §3.1.2.1: 503 with Retry-After: the repository asks to be asked again later
      const after = answer.retryAfterMs ?? 60_000;
      if (attempt >= (opts.maxRetries ?? 5) || after > (opts.maxRetryAfterMs ?? 3600_000)) {
        throw new HarvestFailure('retry-later', `the repository answered 503 ${attempt + 1} times, asking to wait ${Math.round(after / 1000)} s: the harvest resumes from here next time`);
      }
      // The lease outlasts the wait.
      await store.writer.transaction((w) => renewIn(w, after + leaseMs));
      await sleep(after);
    }
  };

  let run: HarvestRun | undefined;
  const finish = async (error?: { code: string; message: string }): Promise<HarvestReport> => {
    const counts = run ?? { pages: 0, applied: 0, unchanged: 0, refused: 0 };
    const from = run?.from;
    state.last = { status: error === undefined ? 'ok' : 'failed', finished: now(), pages: counts.pages, applied: counts.applied, unchanged: counts.unchanged, refused: counts.refused + (error !== undefined ? 1 : 0), ...(from !== undefined ? { from } : {}), ...(error !== undefined ? { error } : {}) };
    if (error === undefined) {
      state.nextFrom = run!.start;
      delete state.run;
    }
    state.totals.harvests++;
    if (error !== undefined) state.totals.refused++;
    await store.writer.transaction(async (w) => {
      await renewIn(w);
      if (error !== undefined) await store.harvestLog.refuseIn(w, repo, [{ at: now(), code: error.code, reason: error.message }]);
      await store.harvestLog.pruneIn(w, repo, opts.keepRefusals ?? 10_000);
      await store.harvestLog.saveIn(w, state);
    });
    const refusals = (await store.harvestLog.refusals(repo, 100)).filter((r) => r.at >= began);
    return { repo, status: state.last.status, ...(from !== undefined ? { from } : {}), pages: counts.pages, applied: counts.applied, unchanged: counts.unchanged, refused: state.last.refused, ...(error !== undefined ? { error } : {}), refusals };
  };

  try {
    const identify = await ask({ verb: 'Identify' });
    if (identify.errors.length > 0) throw new HarvestFailure(identify.errors[0]!.code || 'oai-error', `Identify: ${identify.errors[0]!.message}`);
    const g = GRANULARITY[identify.identify?.granularity ?? ''];
    if (identify.identify === undefined || g === undefined) throw new HarvestFailure('bad-identify', `Identify declares no granularity of OAI-PMH 2.0 (${identify.identify?.granularity ?? 'none'})`);
    const clock = parseUtcDatetime(identify.responseDate ?? '');
    if (clock === undefined || clock.granularity !== 'second') throw new HarvestFailure('bad-identify', `Identify's responseDate "${identify.responseDate ?? ''}" is not a UTCdatetime (§3.2)`);
    state.granularity = g;
    if (opts.from !== undefined || state.run === undefined) {
      const asked = opts.from ?? state.nextFrom;
      let from: string | undefined;
      if (asked !== undefined) {
        const f = parseUtcDatetime(asked);
        if (f === undefined) throw new HarvestFailure('bad-from', `from "${asked}" is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ`);
        // §3.3.1: a repository of day granularity answers badArgument to a from with a time
        from = inGranularity(asked, g);
        // a from past the repository's own clock would select nothing now, and miss what changes before it comes
        if (f.first > clock.first) throw new HarvestFailure('from-in-future', `from ${asked} is later than the repository's clock (${identify.responseDate}): nothing would be harvested until then, and changes made before it missed`);
      }
      run = { start: inGranularity(identify.responseDate!, g), token: '', began, pages: 0, applied: 0, unchanged: 0, refused: 0, ...(from !== undefined ? { from } : {}) };
    } else {
      run = state.run;
    }
    const first = (): Record<string, string> => ({ verb: 'ListRecords', metadataPrefix: source.metadataPrefix, ...(run!.from !== undefined ? { from: run!.from } : {}), ...(source.set !== undefined ? { set: source.set } : {}) });
    let args = run.token !== '' ? { verb: 'ListRecords', resumptionToken: run.token } : first();
    const seen = new Set<string>(run.token !== '' ? [run.token] : []);
    let restarted = false;
    const ctx = { repo, baseUrl: source.baseUrl, format: source.metadataPrefix, authority, maxUrls: opts.maxUrls ?? 100, actor: `${source.mirror === true ? 'mirror' : 'harvest'} ${source.baseUrl}`, now, ...(source.mirror === true ? { mirror: true } : {}), ...(opts.schemes !== undefined ? { schemes: opts.schemes } : {}) };
    for (let pages = 0; ; pages++) {
      if (pages >= (opts.maxPages ?? 100_000)) throw new HarvestFailure('too-many-pages', `more than ${opts.maxPages ?? 100_000} pages in one harvest: the resumption tokens do not end`);
      const page = await ask(args);
      const error = page.errors[0];
      if (error !== undefined) {
        // §3.6: noRecordsMatch on the first request is an empty list, not a failure
        if (error.code === 'noRecordsMatch' && args.resumptionToken === undefined) break;
        // a token the repository no longer knows (expired, or the repository restarted): list again from the same from
        if (error.code === 'badResumptionToken' && args.resumptionToken !== undefined && !restarted) {
          restarted = true;
          seen.clear();
          args = first();
          continue;
        }
        throw new HarvestFailure(error.code || 'oai-error', `${args.verb}: ${error.code} ${error.message}`.trim());
      }
      const token = page.resumptionToken?.token ?? '';
      if (token !== '' && seen.has(token)) throw new HarvestFailure('resumption-loop', `the repository sent the resumption token "${token.slice(0, 80)}" a second time: the list would never end`);
      seen.add(token);
      await store.writer.transaction(async (w) => {
        await renewIn(w);
        const r = await applyPage(w, store, ctx, page.records);
        run!.pages++;
        run!.applied += r.applied;
        run!.unchanged += r.unchanged;
        run!.refused += r.refused;
        run!.token = token;
        state.totals.applied += r.applied;
        state.totals.refused += r.refused;
        state.run = run!;
        await store.harvestLog.saveIn(w, state);
      });
      await opts.onPage?.(run.pages);
      if (token === '') break;
      args = { verb: 'ListRecords', resumptionToken: token };
    }
    return await finish();
  } catch (e) {
    if (e instanceof HarvestFailure) return finish({ code: e.code, message: e.message });
    throw e;
  }
}
