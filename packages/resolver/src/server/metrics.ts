/**
 * `/metrics` in the Prometheus text exposition format (version 0.0.4):
 * request counts by kind and status, a latency histogram, rate-limited
 * requests, imports, the store's gauges, link checks and the health of
 * locations.
 */
import type { Store } from '../store/store.js';

const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The counters of one server.
 *
 * @example
 * ```ts
 * const m = new Metrics();
 * m.observe('resolve', 302, 0.0004);
 * m.observeLinkCheck('broken');
 * m.render().includes('urikit_requests_total{kind="resolve",status="302"} 1'); // true
 * m.render().includes('urikit_link_checks_total{outcome="broken"} 1'); // true
 * ```
 */
export class Metrics {
  readonly #requests = new Map<string, number>();
  readonly #keys = new Map<string, Map<number, string>>();
  readonly #buckets = new Float64Array(BUCKETS.length);
  #sum = 0;
  #count = 0;
  rateLimited = 0;
  importedRecords = 0;
  failedImports = 0;
  inFlight = 0;
  /** Probes by outcome (ok, broken, retry, blocked). */
  readonly linkChecks = new Map<string, number>();
  /** Locations per health state, as of the last pass of the link checker. */
  linkStates: Record<string, number> = {};
  /** Requests answered 503/507 because of a fault of the store, by its code. */
  readonly storeFaults = new Map<string, number>();
  /** Resolutions answered from the name cache, marked stale, while the database was away. */
  staleAnswers = 0;
  readonly #started = Date.now();

  /** Counts one probe of the link checker. */
  observeLinkCheck(outcome: string): void {
    this.linkChecks.set(outcome, (this.linkChecks.get(outcome) ?? 0) + 1);
  }

  /** Counts one answered request. */
  observe(kind: string, status: number, seconds: number): void {
    // The "kind|status" key of each pair is built once, not per request.
    let byStatus = this.#keys.get(kind);
    if (byStatus === undefined) this.#keys.set(kind, (byStatus = new Map()));
    let k = byStatus.get(status);
    if (k === undefined) byStatus.set(status, (k = `${kind}|${status}`));
    this.#requests.set(k, (this.#requests.get(k) ?? 0) + 1);
    for (let i = 0; i < BUCKETS.length; i++) if (seconds <= BUCKETS[i]!) this.#buckets[i]!++;
    this.#sum += seconds;
    this.#count++;
  }

  /** The exposition text. */
  render(extra: Record<string, number> = {}): string {
    const lines: string[] = [
      '# HELP urikit_requests_total Requests answered, by kind and status.',
      '# TYPE urikit_requests_total counter',
    ];
    for (const [k, n] of this.#requests) {
      const [kind, status] = k.split('|');
      lines.push(`urikit_requests_total{kind="${kind}",status="${status}"} ${n}`);
    }
    lines.push('# HELP urikit_request_duration_seconds Time to answer a request.', '# TYPE urikit_request_duration_seconds histogram');
    BUCKETS.forEach((b, i) => lines.push(`urikit_request_duration_seconds_bucket{le="${b}"} ${this.#buckets[i]}`));
    lines.push(`urikit_request_duration_seconds_bucket{le="+Inf"} ${this.#count}`);
    lines.push(`urikit_request_duration_seconds_sum ${this.#sum}`, `urikit_request_duration_seconds_count ${this.#count}`);
    lines.push('# HELP urikit_rate_limited_total Requests refused with 429.', '# TYPE urikit_rate_limited_total counter', `urikit_rate_limited_total ${this.rateLimited}`);
    lines.push('# HELP urikit_imported_records_total Records written by bulk imports.', '# TYPE urikit_imported_records_total counter', `urikit_imported_records_total ${this.importedRecords}`);
    lines.push('# HELP urikit_failed_imports_total Bulk imports rolled back.', '# TYPE urikit_failed_imports_total counter', `urikit_failed_imports_total ${this.failedImports}`);
    lines.push('# HELP urikit_requests_in_flight Requests being answered.', '# TYPE urikit_requests_in_flight gauge', `urikit_requests_in_flight ${this.inFlight}`);
    lines.push('# HELP urikit_link_checks_total Probes of the link checker, by outcome.', '# TYPE urikit_link_checks_total counter');
    for (const [outcome, n] of this.linkChecks) lines.push(`urikit_link_checks_total{outcome="${outcome}"} ${n}`);
    lines.push('# HELP urikit_link_locations Locations by health state, as of the link checker\'s last pass.', '# TYPE urikit_link_locations gauge');
    for (const [state, n] of Object.entries(this.linkStates)) lines.push(`urikit_link_locations{state="${state}"} ${n}`);
    lines.push('# HELP urikit_store_fault_answers_total Requests answered 503 or 507 because of a fault of the store, by its code.', '# TYPE urikit_store_fault_answers_total counter');
    for (const [code, n] of this.storeFaults) lines.push(`urikit_store_fault_answers_total{code="${code}"} ${n}`);
    lines.push('# HELP urikit_stale_answers_total Resolutions answered from the name cache, marked stale, while the database was away.', '# TYPE urikit_stale_answers_total counter', `urikit_stale_answers_total ${this.staleAnswers}`);
    const mem = process.memoryUsage();
    lines.push('# HELP process_resident_memory_bytes Resident memory.', '# TYPE process_resident_memory_bytes gauge', `process_resident_memory_bytes ${mem.rss}`);
    lines.push('# HELP process_start_time_seconds Start time of the process.', '# TYPE process_start_time_seconds gauge', `process_start_time_seconds ${Math.floor(this.#started / 1000)}`);
    for (const [name, v] of Object.entries(extra)) lines.push(`# TYPE ${name} gauge`, `${name} ${v}`);
    return `${lines.join('\n')}\n`;
  }
}

/**
 * The gauges of a store for /metrics: the names its cache holds and, when
 * it reads from a streaming replica, how far behind the primary that is
 * (the time the last sample of the primary's log position took to be
 * replayed there, and the bytes between the two when it was taken).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * storeGauges(store); // { urikit_name_cache_names: 0 }
 * await store.close();
 * ```
 */
export function storeGauges(store: Store): Record<string, number> {
  const gauges: Record<string, number> = { urikit_name_cache_names: store.nameCache?.size ?? 0 };
  if (store.replica) {
    gauges.urikit_replica_lag_seconds = store.replica.seconds;
    gauges.urikit_replica_lag_bytes = store.replica.bytes;
  }
  return gauges;
}

/**
 * The availability of a store's parts for /metrics: `urikit_store_up`
 * (1 or 0) per part, its outages and their total length, whether writes
 * go through, and what the faults cost (idle connections the server
 * ended, reads sent again, batches the name cache answered alone).
 *
 * @example
 * ```ts
 * const store = await openStore(':memory:');
 * const text = storeAvailabilityMetrics(store);
 * text.includes('urikit_store_up{part="primary"} 1'); // true
 * text.includes('urikit_store_writes_ok 1'); // true
 * await store.close();
 * ```
 */
export function storeAvailabilityMetrics(store: Store): string {
  const s = store.availability.snapshot();
  const parts = [['primary', s.primary], ...(s.replica !== undefined ? [['replica', s.replica] as const] : [])] as const;
  const counts = store.faultCounts();
  const lines = ['# HELP urikit_store_up Whether the last statement on this part of the store succeeded.', '# TYPE urikit_store_up gauge'];
  for (const [part, p] of parts) lines.push(`urikit_store_up{part="${part}"} ${p.up ? 1 : 0}`);
  lines.push('# HELP urikit_store_outages_total Times this part of the store went away.', '# TYPE urikit_store_outages_total counter');
  for (const [part, p] of parts) lines.push(`urikit_store_outages_total{part="${part}"} ${p.outages}`);
  lines.push('# HELP urikit_store_outage_seconds_total Time this part of the store was away, the current outage included.', '# TYPE urikit_store_outage_seconds_total counter');
  for (const [part, p] of parts) lines.push(`urikit_store_outage_seconds_total{part="${part}"} ${p.downMs / 1000}`);
  lines.push(
    '# HELP urikit_store_writes_ok Whether the last write went through (0 after a full disk or a read-only store refused it).', '# TYPE urikit_store_writes_ok gauge', `urikit_store_writes_ok ${s.writes === 'ok' ? 1 : 0}`,
    '# HELP urikit_store_lost_connections_total Idle connections the database ended (replaced on demand).', '# TYPE urikit_store_lost_connections_total counter', `urikit_store_lost_connections_total ${counts.lostConnections}`,
    '# HELP urikit_store_retried_reads_total Reads sent again on a fresh connection after theirs died.', '# TYPE urikit_store_retried_reads_total counter', `urikit_store_retried_reads_total ${counts.retriedReads}`,
    '# HELP urikit_store_stale_batches_total Batches of resolution reads the name cache answered alone while the database was away.', '# TYPE urikit_store_stale_batches_total counter', `urikit_store_stale_batches_total ${counts.staleBatches}`,
  );
  return `${lines.join('\n')}\n`;
}
