/**
 * Link health in resolution answers: the order of a name's locations
 * (healthy ones first, by preference; a preservation copy after every
 * healthy regular location, the fallback when all of them fail; failing
 * ones last, still shown: a name whose every location fails still
 * answers), and the note on each location that is not healthy, which the
 * formats show (urc-0 metainformation, JSON, HTML, plain text).
 */
import type { ChangedLinkHealth, LinkHealthLookup } from '../../links/view.js';
import type { NameLocation, NameRecord } from '../../store/types.js';

/**
 * What an answer says of a location that is not healthy (times in ISO 8601).
 *
 * @example
 * ```ts
 * const n: HealthNote = { state: 'failing', since: '2026-11-24T10:00:00.000Z', lastCheck: '2026-11-26T14:00:00.000Z', failures: 2, status: 404 };
 * healthLine(n); // 'Link health: failing since 2026-11-24T10:00:00.000Z, 2 failures in a row, last checked 2026-11-26T14:00:00.000Z (HTTP 404)'
 * ```
 */
export interface HealthNote {
  state: 'failing' | 'retry' | 'blocked' | 'ok';
  /** When the location entered this state. */
  since: string;
  lastCheck: string;
  /** Conclusive failures in a row. */
  failures: number;
  status?: number;
  error?: string;
}

/**
 * A location as an answer shows it: with its health note, when it has one.
 *
 * @example
 * ```ts
 * const l: ShownLocation = { url: 'https://a.example/', health: { state: 'retry', since: '1970-01-01T00:00:00.000Z', lastCheck: '1970-01-01T00:00:00.000Z', failures: 0 } };
 * locationRank(l); // 0
 * ```
 */
export type ShownLocation = NameLocation & { health?: HealthNote };

/**
 * The class a location is ordered in before its preference: 0 healthy,
 * 1 a healthy preservation copy, 2 failing, 3 a failing preservation copy.
 * "Retry later" and "blocked" (not probed) are not failures.
 *
 * @example
 * ```ts
 * locationRank({ url: 'https://a.example/', preservation: true }); // 1
 * ```
 */
export function locationRank(l: ShownLocation): number {
  return (l.health?.state === 'failing' ? 2 : 0) + (l.preservation === true ? 1 : 0);
}

/**
 * One line of text for a note: the urc-0 metainformation line (1995 draft
 * §3.4.2, free text) and the plain-text and HTML forms.
 *
 * @example
 * ```ts
 * healthLine({ state: 'blocked', since: '1970-01-01T00:00:00.000Z', lastCheck: '1970-01-01T00:00:00.000Z', failures: 0, error: 'blocked-address (private)' });
 * // 'Link health: blocked since 1970-01-01T00:00:00.000Z, last checked 1970-01-01T00:00:00.000Z (blocked-address (private))'
 * ```
 */
export function healthLine(n: HealthNote): string {
  const failures = n.failures > 0 ? `, ${n.failures} failure${n.failures === 1 ? '' : 's'} in a row` : '';
  const why = n.error !== undefined && !n.error.startsWith('http-') ? n.error : n.status !== undefined ? `HTTP ${n.status}` : n.error;
  return `Link health: ${n.state} since ${n.since}${failures}, last checked ${n.lastCheck}${why !== undefined ? ` (${why})` : ''}`;
}

function noteOf(h: ChangedLinkHealth): HealthNote {
  const n: HealthNote = {
    state: h.state === 'unchecked' ? 'ok' : h.state,
    since: new Date(h.state === 'failing' ? h.failingSince ?? h.changed : h.changed).toISOString(),
    lastCheck: new Date(h.lastCheck).toISOString(),
    failures: h.consecutiveFailures,
  };
  if (h.status !== undefined) n.status = h.status;
  if (h.error !== undefined) n.error = h.error;
  return n;
}

/**
 * A record with the health of its locations, for an answer: the same
 * record when the lookup knows none of its locations; else a copy whose
 * locations carry their notes, with `digest` (what the answer depends on,
 * for its entity tag) and `changed` (the latest change of that health,
 * for Last-Modified).
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', version: 1, created: 0, updated: 0,
 *   locations: [{ url: 'https://a.example/', preference: 2 }, { url: 'https://b.example/' }] };
 * const h = { ...initialHealth('https://a.example/'), state: 'failing' as const, consecutiveFailures: 1, lastCheck: 9, changed: 9 };
 * const shown = withHealth(r, { size: 1, get: (url) => (url === h.url ? h : undefined) });
 * preferredOrder(shown.record.locations).map((l) => l.url); // ['https://b.example/', 'https://a.example/']
 * shown.changed; // 9
 * ```
 */
export function withHealth(r: NameRecord, lookup: LinkHealthLookup | undefined): { record: NameRecord; digest: string; changed: number } {
  if (lookup === undefined || lookup.size === 0) return { record: r, digest: '', changed: 0 };
  let locations: ShownLocation[] | undefined;
  let digest = '';
  let changed = 0;
  for (let i = 0; i < r.locations.length; i++) {
    const l = r.locations[i]!;
    const h = lookup.get(l.url);
    if (h === undefined) continue;
    locations ??= r.locations.slice();
    changed = Math.max(changed, h.changed, h.state === 'ok' ? 0 : h.lastCheck);
    digest += `${i}:${h.state}:${h.lastCheck};`;
    if (h.state !== 'ok') locations[i] = { ...l, health: noteOf(h) };
  }
  if (locations === undefined) return { record: r, digest: '', changed: 0 };
  // A shared (frozen) record shown with the same health is the same copy each time (resolution/kept-answers.ts compares subjects by identity).
  if (!Object.isFrozen(r)) return { record: { ...r, locations }, digest, changed };
  const before = SHOWN.get(r);
  if (before !== undefined && before.digest === digest && before.changed === changed) return before;
  const copy: NameRecord = { ...r, locations };
  Object.freeze(locations);
  const shown = { record: Object.freeze(copy), digest, changed };
  SHOWN.set(r, shown);
  return shown;
}

/** The last copy of each shared record shown with health. */
const SHOWN = new WeakMap<NameRecord, { record: NameRecord; digest: string; changed: number }>();
