/**
 * Renders resolution results in each format of 1995 draft §3.4 (and
 * text/uri-list of RFC 2169, application/json as today's resolvers serve):
 * lists of locations, metadata, tombstones, lists of names, messages.
 */
import { boundedJson, boundedText } from '../../formats/bounded.js';
import { escapeHtml, htmlLink, htmlPage } from '../../formats/html.js';
import type { ResultFormat } from '../../formats/negotiate.js';
import { formatUrc0, type FormatUrc0Options, type Urc0Part } from '../../formats/urc0.js';
import type { NameRecord } from '../../store/types.js';
import { healthLine, locationRank, type ShownLocation } from './location-health.js';

/**
 * A rendered body: bytes or text, with the format it is in (1995 draft
 * §3.4).
 *
 * @example
 * ```ts
 * const r: Rendered = renderMessage('Gone', 'withdrawn', 'json');
 * r.format; // 'json'
 * ```
 */
export interface Rendered {
  format: ResultFormat;
  body: string | Uint8Array;
}

/**
 * Locations in the order an answer gives them: healthy regular locations
 * first, then healthy preservation copies, then failing ones (see
 * `location-health.ts`); within each, higher `preference` first, equal
 * ones in their stored order (the first is what I2L redirects to).
 *
 * @example
 * ```ts
 * preferredOrder([{ url: 'a' }, { url: 'b', preference: 1 }])[0].url // 'b'
 * preferredOrder([{ url: 'a', preservation: true, preference: 9 }, { url: 'b' }]).map((l) => l.url) // ['b', 'a']
 * ```
 */
export function preferredOrder<L extends ShownLocation>(locations: readonly L[]): L[] {
  return locations.map((l, i) => ({ l, i, rank: locationRank(l) })).sort((a, b) => a.rank - b.rank || (b.l.preference ?? 0) - (a.l.preference ?? 0) || a.i - b.i).map((x) => x.l);
}

/**
 * The preferred location, the first of {@link preferredOrder}, found in one
 * pass without sorting (what RFC 2483 I2L redirects to).
 *
 * @example
 * ```ts
 * preferredLocation([{ url: 'a' }, { url: 'b', preference: 1 }, { url: 'c', preference: 1 }])?.url // 'b'
 * preferredLocation([]) // undefined
 * ```
 */
export function preferredLocation(locations: readonly ShownLocation[]): ShownLocation | undefined {
  let best: ShownLocation | undefined;
  let bestRank = 0;
  for (const l of locations) {
    const rank = locationRank(l);
    if (!best || rank < bestRank || (rank === bestRank && (l.preference ?? 0) > (best.preference ?? 0))) {
      best = l;
      bestRank = rank;
    }
  }
  return best;
}

/** The text/urc-0 options of a line length (undefined: the default, 1995 draft §3.4.2 sets none). */
function urc0Options(urc0LineLength: number | undefined): FormatUrc0Options {
  return urc0LineLength !== undefined ? { maxLineLength: urc0LineLength } : {};
}

/** What an answer adds to a location's own metainformation: its health, and that it is a preservation copy. */
function notes(l: ShownLocation): string[] {
  const out: string[] = [];
  if (l.health !== undefined) out.push(healthLine(l.health));
  if (l.preservation === true) out.push('Preservation copy: the fallback when the other locations fail');
  return out;
}

/** A location as a text/urc-0 part: the header names charset/language only when the record does (1995 draft §3.4.2); health and preservation are metainformation lines. */
function toPart(l: ShownLocation): Urc0Part {
  const p: Urc0Part = { url: l.url };
  if (l.charset !== undefined) p.charset = l.charset;
  if (l.language !== undefined) p.language = l.language;
  const meta = [...(l.meta !== undefined ? [l.meta] : []), ...notes(l)];
  if (meta.length > 0) p.meta = meta.join('\n');
  return p;
}

function locationJson(l: ShownLocation): Record<string, unknown> {
  return { ...l };
}

/** The notes of a location as HTML, after its link. */
function htmlNotes(l: ShownLocation): string {
  const n = notes(l);
  return n.length === 0 ? '' : `<div class="${l.health !== undefined ? `health ${l.health.state}` : 'note'}">${n.map(escapeHtml).join('<br>')}</div>`;
}

/**
 * A list of locations for `urn`: the 1995 draft's resolution result
 * (§3.4.2 urc-0, §3.4.3 html, §3.4.4 plain), RFC 2169's text/uri-list
 * (the URN as a comment line first), or JSON.
 *
 * @example
 * ```ts
 * renderLocations('urn:ex:a', [{ url: 'http://a/' }], 'uri-list').body // '# urn:ex:a\r\nhttp://a/\r\n'
 * ```
 */
export function renderLocations(urn: string, locations: readonly ShownLocation[], format: ResultFormat, extra?: Record<string, unknown>, urc0LineLength?: number): Rendered {
  switch (format) {
    case 'urc-0':
      return { format, body: formatUrc0(locations.map(toPart), urc0Options(urc0LineLength)) };
    case 'uri-list':
      return { format, body: `# ${urn}\r\n${locations.map((l) => `${l.url}\r\n`).join('')}` };
    case 'json':
      return { format, body: `${JSON.stringify({ urn, ...extra, locations: locations.map(locationJson) })}\n` };
    case 'html': {
      const items = locations.map((l) => `<li>${htmlLink(l.url)}${l.mediaType ? ` <small>(${escapeHtml(l.mediaType)})</small>` : ''}${l.meta ? `<div class="meta">${escapeHtml(l.meta)}</div>` : ''}${htmlNotes(l)}</li>`).join('\n');
      return { format, body: htmlPage(urn, `<h1><code>${escapeHtml(urn)}</code></h1>\n<ol>\n${items}\n</ol>`) };
    }
    case 'plain':
      return { format, body: `${urn}\n\n${locations.map((l) => `${l.url}${[...(l.meta ? l.meta.split('\n') : []), ...notes(l)].map((m) => `\n  ${m}`).join('')}\n`).join('\n')}` };
  }
}

/**
 * The public view of a record: what RFC 2483 I2C, `?info` and the admin
 * API show (locations in order of preference, times in ISO 8601).
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'URN:EX:a', status: 'active', version: 1, created: 0, updated: 0,
 *   locations: [{ url: 'http://a/' }, { url: 'http://b/', preference: 1 }] };
 * recordJson(r);
 * // { urn: 'URN:EX:a', key: 'urn:ex:a', status: 'active', locations: [{ url: 'http://b/', preference: 1 }, { url: 'http://a/' }],
 * //   version: 1, created: '1970-01-01T00:00:00.000Z', updated: '1970-01-01T00:00:00.000Z' }
 * ```
 */
export function recordJson(r: NameRecord): Record<string, unknown> {
  const o: Record<string, unknown> = {
    urn: r.urn, key: r.key, status: r.status, locations: preferredOrder(r.locations).map(locationJson),
  };
  if (r.metadata !== undefined) o.metadata = r.metadata;
  if (r.movedTo !== undefined) { o.movedTo = r.movedTo; o.permanent = r.permanent ?? false; }
  if (r.successor !== undefined) o.successor = r.successor;
  if (r.reason !== undefined) o.reason = r.reason;
  o.version = r.version;
  o.created = new Date(r.created).toISOString();
  o.updated = new Date(r.updated).toISOString();
  return o;
}

/** Characters of metadata a record shows as text or HTML, at most (the rest is marked as cut). */
const METADATA_CHARS = 65_536;

/**
 * The fields of a record as (label, text) pairs, its metadata within
 * {@link METADATA_CHARS} and 16 levels whatever the store holds (a value
 * that is not a string is written as indented JSON, its indentation
 * capped: see formats/bounded.ts).
 */
function metadataLines(r: NameRecord): Array<[string, string]> {
  const lines: Array<[string, string]> = [['URN', r.urn], ['Status', r.status]];
  if (r.metadata) {
    let budget = METADATA_CHARS;
    for (const [k, v] of Object.entries(r.metadata)) {
      if (budget <= 0) { lines.push(['…', 'truncated: the metadata is longer than 65,536 characters']); break; }
      const text = typeof v === 'string' ? boundedText(v, budget) : boundedJson(v, { maxChars: budget, maxDepth: 16, maxIndent: 4 }).text;
      budget -= text.length + k.length;
      lines.push([boundedText(k, 256), text]);
    }
  }
  if (r.movedTo !== undefined) lines.push([r.permanent ? 'Moved permanently to' : 'Moved to', r.movedTo]);
  if (r.successor !== undefined) lines.push(['Successor', r.successor]);
  if (r.reason !== undefined) lines.push(['Reason', r.reason]);
  lines.push(['Updated', new Date(r.updated).toISOString()]);
  return lines;
}

/**
 * A record's metadata without following it (RFC 2483 I2C, `?info`, and
 * the tombstone of a withdrawn name): JSON, plain text or HTML.
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'withdrawn', reason: 'retracted',
 *   locations: [], version: 2, created: 0, updated: 0 };
 * renderRecord(r, 'plain').body;
 * // 'URN: urn:ex:a\nStatus: withdrawn\nReason: retracted\nUpdated: 1970-01-01T00:00:00.000Z\n'
 * ```
 */
export function renderRecord(r: NameRecord, format: ResultFormat, urc0LineLength?: number): Rendered {
  switch (format) {
    case 'json': {
      // The names that moved here or name this one their successor (RFC 5829 §3.4): the whole of what `Link` may only begin.
      const incoming = { ...(r.movedFrom?.length ? { movedFrom: r.movedFrom } : {}), ...(r.predecessors?.length ? { predecessors: r.predecessors } : {}) };
      return { format, body: `${JSON.stringify({ ...recordJson(r), ...incoming })}\n` };
    }
    case 'html': {
      const dl = metadataLines(r).map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${/^[a-z][a-z0-9+.-]*:\S+$/i.test(v) && v.length < 2048 ? htmlLink(v) : escapeHtml(v)}</dd>`).join('\n');
      const locs = r.locations.length ? `\n<h2>Locations</h2>\n<ol>${preferredOrder(r.locations).map((l) => `<li>${htmlLink(l.url)}${htmlNotes(l)}</li>`).join('')}</ol>` : '';
      return { format, body: htmlPage(r.urn, `<h1><code>${escapeHtml(r.urn)}</code></h1>\n<dl>\n${dl}\n</dl>${locs}`) };
    }
    case 'urc-0':
      return { format, body: formatUrc0(preferredOrder(r.locations).map(toPart), urc0Options(urc0LineLength)) };
    case 'uri-list':
      return { format, body: `# ${r.urn}\r\n${preferredOrder(r.locations).map((l) => `${l.url}\r\n`).join('')}` };
    case 'plain':
      return { format, body: recordText(r) };
  }
}

/**
 * A record as plain text: one `Field: value` line a field (metadata
 * within 65,536 characters, the cut marked), then its locations.
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'active', metadata: { year: 1997 },
 *   locations: [{ url: 'http://a/' }], version: 1, created: 0, updated: 0 };
 * recordText(r); // 'URN: urn:ex:a\nStatus: active\nyear: 1997\nUpdated: 1970-01-01T00:00:00.000Z\nLocation: http://a/\n'
 * ```
 */
export function recordText(r: NameRecord): string {
  return `${metadataLines(r).map(([k, v]) => `${k}: ${v}`).join('\n')}\n${preferredOrder(r.locations).map((l) => `Location: ${l.url}\n${notes(l).map((n) => `  ${n}\n`).join('')}`).join('')}`;
}

/**
 * A list of names (urn+c, urn+p, I2Ns, the urn+a list): one per line,
 * each followed by CRLF as 1995 draft §3.5.3 says, or as JSON, HTML,
 * text/uri-list, or urc-0 parts. A name in `resolvers` is held by another
 * resolver (a delegation): its base URL follows the name after a space in
 * text/plain, is a `Resolver:` line of the part's metainformation in
 * urc-0 (§3.4.2), a comment line before it in text/uri-list (RFC 2483
 * §5), the `resolvers` object in JSON, and the link in HTML.
 *
 * @example
 * ```ts
 * renderNames('children of urn:dns:flixco.com', ['urn:dns:urn.flixco.com'], 'plain').body // 'urn:dns:urn.flixco.com\r\n'
 * renderNames('children', ['urn:dns:b.example'], 'plain', undefined, undefined, { 'urn:dns:b.example': 'http://b.example:4500' }).body // 'urn:dns:b.example http://b.example:4500\r\n'
 * ```
 */
export function renderNames(title: string, names: readonly string[], format: ResultFormat, links?: (name: string) => string, urc0LineLength?: number, resolvers: Readonly<Record<string, string>> = {}): Rendered {
  const at = (n: string): string | undefined => (Object.hasOwn(resolvers, n) ? resolvers[n] : undefined);
  switch (format) {
    case 'plain':
      return { format, body: names.map((n) => `${n}${at(n) !== undefined ? ` ${at(n)}` : ''}\r\n`).join('') };
    case 'uri-list':
      return { format, body: `# ${title}\r\n${names.map((n) => `${at(n) !== undefined ? `# resolver: ${at(n)}\r\n` : ''}${n}\r\n`).join('')}` };
    case 'json': {
      const held = Object.fromEntries(names.flatMap((n) => (at(n) !== undefined ? [[n, at(n)!]] : [])));
      return { format, body: `${JSON.stringify({ title, names, ...(Object.keys(held).length > 0 ? { resolvers: held } : {}) })}\n` };
    }
    case 'urc-0':
      return { format, body: formatUrc0(names.map((n) => (at(n) !== undefined ? { url: n, meta: `Resolver: ${at(n)}` } : { url: n })), urc0Options(urc0LineLength)) };
    case 'html': {
      const item = (n: string): string => {
        const r = at(n);
        if (r !== undefined) return `${htmlLink(`${r.replace(/\/+$/, '')}${links ? links(n) : `/${n}`}`, n)} (resolved at ${escapeHtml(r)})`;
        return links ? htmlLink(links(n), n) : `<code>${escapeHtml(n)}</code>`;
      };
      return { format, body: htmlPage(title, `<h1>${escapeHtml(title)}</h1>\n<ul>\n${names.map((n) => `<li>${item(n)}</li>`).join('\n')}\n</ul>`) };
    }
  }
}

/**
 * A short message (404s, 501s) in any of the five formats: text, HTML,
 * JSON; in text/uri-list a comment line (no URI to give), in text/urc-0
 * no part at all (the format has no place for a message, 1995 draft
 * §3.4.2: `*[...]` allows none).
 *
 * @example
 * ```ts
 * renderMessage('Not Found', 'urn:ex:a is not known here', 'plain').body // 'Not Found: urn:ex:a is not known here\n'
 * renderMessage('Not Found', 'urn:ex:a is not known here', 'uri-list').body // '# Not Found: urn:ex:a is not known here\r\n'
 * renderMessage('Not Found', 'urn:ex:a is not known here', 'urc-0').body // ''
 * ```
 */
export function renderMessage(title: string, detail: string, format: ResultFormat): Rendered {
  switch (format) {
    case 'json':
      return { format, body: `${JSON.stringify({ title, detail })}\n` };
    case 'html':
      return { format, body: htmlPage(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(detail)}</p>`) };
    case 'uri-list':
      return { format, body: `# ${`${title}: ${detail}`.replace(/[\r\n]+/g, ' ')}\r\n` };
    case 'urc-0':
      return { format, body: '' };
    default:
      return { format: 'plain', body: `${title}: ${detail}\n` };
  }
}
