/**
 * The bodies of the answers that are not a list of locations, in each of
 * the five formats (server/resolution/answer-table.ts): a moved name (1995 draft
 * §3.4.1, §4), a withdrawn name's tombstone (its reason and date), a
 * reserved name, an unknown one. A client that asked only for
 * text/urc-0 gets text/urc-0 here too (§3.4.2), and an HTTP/0.9 client,
 * which sees the body alone, learns from it what the status line would
 * have said.
 */
import { escapeHtml, htmlLink, htmlPage } from '../../formats/html.js';
import type { ResultFormat } from '../../formats/negotiate.js';
import { formatUrc0, type Urc0Part } from '../../formats/urc0.js';
import type { NameRecord } from '../../store/types.js';
import { recordJson, recordText, type Rendered } from './render.js';

/**
 * Text as text/urc-0 metainformation can carry it (1995 draft §3.4.2):
 * US-ASCII when it is, else ISO-8859-1, a character outside both written
 * `U+XXXX`; no line begins with "=====", no CR.
 *
 * @example
 * ```ts
 * urc0Meta('plain text'); // { charset: 'US-ASCII', meta: 'plain text' }
 * urc0Meta('café ☕'); // { charset: 'ISO-8859-1', meta: 'café U+2615' }
 * urc0Meta('=====x'); // { charset: 'US-ASCII', meta: ' =====x' }
 * ```
 */
export function urc0Meta(text: string): Pick<Urc0Part, 'charset' | 'meta'> {
  let ascii = true;
  let out = '';
  for (const ch of text.replace(/\r\n?/g, '\n')) {
    const c = ch.codePointAt(0)!;
    if (c > 0x7f) ascii = false;
    out += c > 0xff ? `U+${c.toString(16).toUpperCase().padStart(4, '0')}` : ch;
  }
  const meta = out.split('\n').map((l) => (l.startsWith('=====') ? ` ${l}` : l)).join('\n');
  return { charset: ascii ? 'US-ASCII' : 'ISO-8859-1', meta };
}

/** A single text/urc-0 part: a URL and what is said about it. */
function urc0Part(url: string, text: string): Uint8Array {
  return formatUrc0([{ url, ...urc0Meta(text) }], { maxLineLength: Infinity });
}

/** The date of a record's last change, ISO 8601. */
function dateOf(r: NameRecord): string {
  return new Date(r.updated).toISOString();
}

/** One comment line of text/uri-list per line of `text` (RFC 2483 §5: "#" lines are comments). */
function uriListComments(text: string): string {
  return text.split('\n').map((l) => `# ${l.replace(/\r/g, '')}\r\n`).join('');
}

/**
 * The body of a moved name (1995 draft §3.4.1, §4): where it went, for
 * good or for now, why and since when; in text/urc-0 and text/uri-list
 * the new URN or URL is the one URI given, so that a client reading the
 * body alone substitutes it.
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'moved', movedTo: 'urn:ex:b', permanent: true,
 *   reason: 'renamed', locations: [], version: 2, created: 0, updated: 0 };
 * new TextDecoder().decode(renderMoved(r, 'urc-0').body as Uint8Array);
 * // '=====US-ASCII\r\nurn:ex:b\r\nMoved permanently to urn:ex:b on 1970-01-01T00:00:00.000Z: renamed\r\n'
 * renderMoved(r, 'uri-list').body; // '# urn:ex:a moved permanently to urn:ex:b on 1970-01-01T00:00:00.000Z: renamed\r\nurn:ex:b\r\n'
 * ```
 */
export function renderMoved(r: NameRecord, format: ResultFormat): Rendered {
  const to = r.movedTo!;
  const how = r.permanent ? 'permanently' : 'temporarily';
  const said = `moved ${how} to ${to} on ${dateOf(r)}${r.reason !== undefined ? `: ${r.reason}` : ''}`;
  switch (format) {
    case 'urc-0':
      return { format, body: urc0Part(to, `M${said.slice(1)}`) };
    case 'uri-list':
      return { format, body: `${uriListComments(`${r.urn} ${said}`)}${to}\r\n` };
    case 'json':
      return { format, body: `${JSON.stringify({ urn: r.urn, key: r.key, status: 'moved', movedTo: to, permanent: r.permanent === true, ...(r.reason !== undefined ? { reason: r.reason } : {}), updated: dateOf(r) })}\n` };
    case 'html':
      return { format, body: htmlPage(r.urn, `<h1><code>${escapeHtml(r.urn)}</code></h1>\n<p>Moved ${how} to ${htmlLink(to)} on ${escapeHtml(dateOf(r))}.</p>${r.reason !== undefined ? `\n<p>${escapeHtml(r.reason)}</p>` : ''}`) };
    case 'plain':
      return { format, body: `${r.urn} ${said}\n` };
  }
}

/**
 * The tombstone of a withdrawn name in each format, with its reason and
 * the date it was withdrawn (DESIGN.md: a withdrawn name answers 410 with
 * its tombstone). text/urc-0 has a part only for a URL: the part points
 * at the record (`recordUrl`, the `?s=I2C` of this resolver).
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'withdrawn', reason: 'retracted',
 *   locations: [], version: 2, created: 0, updated: 0 };
 * renderTombstone(r, 'uri-list', 'http://r.example/urn:ex:a?s=I2C').body;
 * // '# urn:ex:a was withdrawn on 1970-01-01T00:00:00.000Z\r\n# Reason: retracted\r\n'
 * renderTombstone(r, 'plain', '').body;
 * // 'urn:ex:a was withdrawn on 1970-01-01T00:00:00.000Z.\nReason: retracted\n\nURN: urn:ex:a\nStatus: withdrawn\nReason: retracted\nUpdated: 1970-01-01T00:00:00.000Z\n'
 * ```
 */
export function renderTombstone(r: NameRecord, format: ResultFormat, recordUrl: string): Rendered {
  const said = `${r.urn} was withdrawn on ${dateOf(r)}`;
  const why = r.reason !== undefined ? `Reason: ${r.reason}` : 'No reason was given.';
  switch (format) {
    case 'urc-0':
      return { format, body: urc0Part(recordUrl, `${said}.\n${why}`) };
    case 'uri-list':
      return { format, body: uriListComments(`${said}\n${why}`) };
    case 'json':
      return { format, body: `${JSON.stringify({ ...recordJson(r), withdrawn: dateOf(r) })}\n` };
    case 'html':
      return { format, body: htmlPage(r.urn, `<h1><code>${escapeHtml(r.urn)}</code></h1>\n<p>Withdrawn on ${escapeHtml(dateOf(r))}.</p>\n<p>${escapeHtml(why)}</p>\n<pre class="meta">${escapeHtml(recordText(r))}</pre>`) };
    case 'plain':
      return { format, body: `${said}.\n${why}\n\n${recordText(r)}` };
  }
}

/**
 * The answer for a name held but not yet resolvable, in each format
 * (text/urc-0: a part pointing at the record, `recordUrl`).
 *
 * @example
 * ```ts
 * const r: NameRecord = { key: 'urn:ex:a', urn: 'urn:ex:a', status: 'reserved', locations: [], version: 1, created: 0, updated: 0 };
 * renderReserved(r, 'plain', '').body; // 'urn:ex:a is reserved: held, but not yet resolvable (since 1970-01-01T00:00:00.000Z)\n'
 * ```
 */
export function renderReserved(r: NameRecord, format: ResultFormat, recordUrl: string): Rendered {
  const said = `${r.urn} is reserved: held, but not yet resolvable (since ${dateOf(r)})`;
  switch (format) {
    case 'urc-0':
      return { format, body: urc0Part(recordUrl, said) };
    case 'uri-list':
      return { format, body: uriListComments(said) };
    case 'json':
      return { format, body: `${JSON.stringify({ title: 'Not Found (reserved)', detail: said, urn: r.urn, status: 'reserved', updated: dateOf(r) })}\n` };
    case 'html':
      return { format, body: htmlPage(r.urn, `<h1><code>${escapeHtml(r.urn)}</code></h1>\n<p>${escapeHtml(said)}.</p>`) };
    case 'plain':
      return { format, body: `${said}\n` };
  }
}
