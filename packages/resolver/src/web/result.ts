/**
 * A resolution result as HTML: the status, the URNs asked (§4
 * substitution), each location as an active link with its
 * metainformation (1995 draft §3.4.3: "text/html allows the URLs to be
 * displayed as active links"), and any metadata.
 */
import type { ResolveResult } from '../client/types.js';
import { boundedJson, boundedText } from '../formats/bounded.js';
import { escapeHtml } from '../formats/html.js';
import { linkTo } from './links.js';

/** Reason phrases for the statuses a resolver answers (RFC 9110 §15). */
const REASON: Record<number, string> = {
  200: 'OK', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified',
  307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 404: 'Not Found',
  410: 'Gone', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable',
};

/**
 * The reason phrase of an HTTP status, or "" when it is not one a resolver uses.
 *
 * @example
 * ```ts
 * reasonPhrase(410) // 'Gone'
 * ```
 */
export function reasonPhrase(status: number): string {
  return REASON[status] ?? '';
}

/** Locations a page lists at most (a resolver's answer, not ours, may hold any number). */
const MAX_LOCATIONS = 1000;
/** Characters of one location's metainformation shown at most. */
const MAX_META = 8192;
/** Characters of metadata shown at most: whatever a record holds, a page costs no more (see formats/bounded.ts). */
const MAX_METADATA = 65_536;

/**
 * Renders a {@link ResolveResult} as an HTML fragment whose URLs are
 * active links and whose URNs link to `urnHref(urn)` (1995 draft §3.4.3, §4).
 *
 * @example
 * ```ts
 * renderResolution({ status: 200, locations: [{ url: 'http://a/' }], via: ['urn:x:y'] }, (u) => '/' + u)
 *   .includes('<a href="http://a/" rel="noopener noreferrer">http://a/</a>') // true
 * ```
 */
export function renderResolution(result: ResolveResult, urnHref: (urn: string) => string): string {
  const parts: string[] = [];
  const ok = result.status >= 200 && result.status < 400;
  parts.push(`<p class="status ${ok ? 'good' : 'bad'}">Status <strong>${result.status}</strong> ${escapeHtml(reasonPhrase(result.status))}${result.fromCache ? ' <span class="note">(from cache, 1995 draft §5)</span>' : ''}</p>`);
  if (result.via.length > 1) {
    parts.push('<p>Redirected through (1995 draft §4):</p><ol class="via">');
    for (const urn of result.via) parts.push(`<li>${linkTo(urn, urnHref)}</li>`);
    parts.push('</ol>');
  }
  if (result.locations.length > 0) {
    parts.push('<h3>Locations</h3><ul class="locations">');
    for (const loc of result.locations.slice(0, MAX_LOCATIONS)) {
      const facts: string[] = [];
      if (loc.mediaType) facts.push(escapeHtml(boundedText(loc.mediaType, 256)));
      if (loc.charset) facts.push(escapeHtml(boundedText(loc.charset, 256)));
      if (loc.language) facts.push(escapeHtml(boundedText(loc.language, 256)));
      // A URL too long to show whole is shown cut, as text: a cut URL is not a link to follow.
      const link = loc.url.length > MAX_META ? `<code>${escapeHtml(boundedText(loc.url, MAX_META))}</code>` : linkTo(loc.url, urnHref);
      parts.push(`<li>${link}${facts.length ? ` <span class="note">${facts.join(' · ')}</span>` : ''}${loc.meta ? `<pre class="meta">${escapeHtml(boundedText(loc.meta, MAX_META))}</pre>` : ''}</li>`);
    }
    parts.push('</ul>');
    if (result.locations.length > MAX_LOCATIONS) parts.push(`<p class="note truncated">… truncated: ${result.locations.length - MAX_LOCATIONS} more locations not shown.</p>`);
  } else {
    parts.push('<p>No locations.</p>');
  }
  if (result.metadata !== undefined) {
    // Bounded whatever it holds: indentation stops at 8 levels, output at 64 KiB, the cut marked.
    const text = typeof result.metadata === 'string' ? boundedText(result.metadata, MAX_METADATA) : boundedJson(result.metadata, { maxChars: MAX_METADATA, maxDepth: 32, maxIndent: 8 }).text;
    parts.push(`<h3>Metadata</h3><pre class="meta">${escapeHtml(text)}</pre>`);
  }
  if (result.resolver) parts.push(`<p class="note">Answered by ${escapeHtml(result.resolver)}${result.contentType ? ` as ${escapeHtml(result.contentType)}` : ''}.</p>`);
  return parts.join('\n');
}
