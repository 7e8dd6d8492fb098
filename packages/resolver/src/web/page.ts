/**
 * The page a person uses to look at one URI or URN: components laid out
 * and coloured with the userinfo shown apart (2003 draft §7.5), validity
 * with the position of the error (§3), lint warnings (§7), the normalized
 * form (§6), the comparison of two URIs (§6.2) and, for a URN, its
 * resolution (1995 draft §3, §4). Server-rendered from GET parameters.
 */
import { equivalent, isUriError, lint, normalize, normalizeUrn, parse, parseUrn, schemeOf } from 'urikit';
import type { UriReference } from 'urikit';
import type { ResolveResult } from '../client/types.js';
import { escapeHtml } from '../formats/html.js';
import { htmlDocument } from './layout.js';
import { renderResolution } from './result.js';

/**
 * What {@link renderPage} shows: the `uri` and `compare` query
 * parameters, which program serves the page, and how to resolve a URN.
 *
 * @example
 * ```ts
 * const input: PageInput = { uri: 'http://a/b', compare: 'HTTP://A/b', mode: 'serve' };
 * const html = await renderPage(input);
 * // The comparison ladder of RFC 3986 §6.2: different as strings, equivalent after syntax normalization.
 * html.includes('<th scope="row">simple</th><td><span class="bad">different</span>') // true
 * html.includes('<th scope="row">syntax</th><td><span class="good">equivalent</span>') // true
 * ```
 */
export interface PageInput {
  uri?: string | undefined;
  compare?: string | undefined;
  mode: 'serve' | 'gateway';
  resolveUrn?: ((urn: string) => Promise<ResolveResult>) | undefined;
}

// Inputs longer than this are refused rather than analysed (no URI a
// person pastes is this long; keeps the page's work bounded).
const MAX_INPUT = 8192;

/** Runs `f`, turning any failure into a message a person can read. */
function attempt<T>(f: () => T): { value: T } | { error: string; offset?: number } {
  try {
    return { value: f() };
  } catch (e) {
    if (isUriError(e)) return { error: e.message, offset: e.offset };
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/** True if `text` has a character beyond US-ASCII. */
function hasNonAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return true;
  return false;
}

/** The input with the character at `offset` marked (the error position). */
function markAt(input: string, offset: number): string {
  const at = Math.max(0, Math.min(offset, input.length));
  const ch = input.slice(at, at + 1);
  return `<code class="diagram">${escapeHtml(input.slice(0, at))}<span class="error-at" title="offset ${at}">${ch === '' ? '&#x2038;' : escapeHtml(ch)}</span>${escapeHtml(input.slice(at + 1))}</code>`;
}

/**
 * The reference drawn with each component in its colour and its
 * delimiters greyed (2003 draft §3: `scheme ":" "//" authority path "?" query "#" fragment`).
 */
function diagram(ref: UriReference): string {
  const span = (cls: string, text: string) => `<span class="c-${cls}" title="${cls}">${escapeHtml(text)}</span>`;
  const delim = (text: string) => `<span class="c-delim">${escapeHtml(text)}</span>`;
  let out = '';
  if (ref.scheme !== undefined) out += span('scheme', ref.scheme) + delim(':');
  if (ref.host !== undefined) {
    out += delim('//');
    if (ref.userinfo !== undefined) out += span('userinfo', ref.userinfo) + delim('@');
    out += span('host', ref.host);
    if (ref.port !== undefined) out += delim(':') + span('port', ref.port);
  }
  out += span('path', ref.path);
  if (ref.query !== undefined) out += delim('?') + span('query', ref.query);
  if (ref.fragment !== undefined) out += delim('#') + span('fragment', ref.fragment);
  return `<p class="diagram" aria-label="the components, coloured">${out}</p>`;
}

/** The components as a table, undefined and empty told apart (2003 draft §5.2.1). */
function componentTable(ref: UriReference): string {
  const rows: string[] = [];
  const keys: (keyof UriReference)[] = ['scheme', 'userinfo', 'host', 'hostKind', 'port', 'path', 'query', 'fragment'];
  for (const key of keys) {
    const v = ref[key];
    const shown = v === undefined ? '<span class="note">(undefined)</span>' : v === '' ? '<span class="note">(empty)</span>' : `<code>${escapeHtml(v)}</code>`;
    rows.push(`<tr><th scope="row"><span class="c-${key === 'hostKind' ? 'host' : key}">${key}</span></th><td>${shown}</td></tr>`);
  }
  return `<table><caption class="note">Components (2003 draft §3)</caption>${rows.join('')}</table>`;
}

/** The userinfo shown apart, with the host the request would really go to (2003 draft §7.5). */
function userinfoApart(ref: UriReference): string {
  if (ref.userinfo === undefined) return '';
  return `<div class="apart" role="note"><strong>Userinfo, shown apart (2003 draft §7.5):</strong> <code>${escapeHtml(ref.userinfo)}</code><br>
This part names a user, not a site. The host this URI really points to is <strong><code>${escapeHtml(ref.host ?? '')}</code></strong>.</div>`;
}

/** The lint findings of the 2003 draft §7, each with its position. */
function lintList(input: string): string {
  const found = attempt(() => lint(input));
  if ('error' in found) return `<p class="note">Lint not available: ${escapeHtml(found.error)}</p>`;
  if (found.value.length === 0) return '<p class="good">No lint warnings.</p>';
  const items = found.value.map((w) => `<li class="${w.severity === 'error' ? 'bad' : 'warn'}"><strong>${escapeHtml(String(w.severity))}</strong> <code>${escapeHtml(String(w.code))}</code> at ${w.start}–${w.end}: ${escapeHtml(String(w.message))}</li>`);
  return `<h3>Lint warnings (2003 draft §7)</h3><ul class="lint">${items.join('')}</ul>`;
}

/** The comparison ladder of the 2003 draft §6.2 between the two inputs. */
function comparison(a: string, b: string): string {
  const rows: string[] = [];
  for (const level of ['simple', 'syntax', 'scheme'] as const) {
    const r = attempt(() => equivalent(a, b, { level }));
    const cell = 'error' in r ? `<span class="bad">${escapeHtml(r.error)}</span>` : r.value ? '<span class="good">equivalent</span>' : '<span class="bad">different</span>';
    rows.push(`<tr><th scope="row">${level}</th><td>${cell}</td></tr>`);
  }
  const nb = attempt(() => normalize(b));
  return `<section aria-labelledby="cmp"><h2 id="cmp">Comparison (2003 draft §6.2)</h2>
<p>With <code>${escapeHtml(b)}</code>${'value' in nb ? `, normalized <code>${escapeHtml(nb.value)}</code>` : ''}</p>
<table>${rows.join('')}</table></section>`;
}

/** The URN's own view: its parts, its normalized form, and its resolution. */
async function urnSection(input: string, resolve: PageInput['resolveUrn'], mode: PageInput['mode']): Promise<string> {
  const parts: string[] = ['<section aria-labelledby="urn"><h2 id="urn">URN (RFC 8141)</h2>'];
  const urn = attempt(() => parseUrn(input));
  if ('error' in urn) {
    parts.push(`<p class="bad">Not a valid URN: ${escapeHtml(urn.error)}</p>`);
    if (urn.offset !== undefined) parts.push(markAt(input, urn.offset));
  } else {
    const rows = Object.entries(urn.value as unknown as Record<string, unknown>)
      .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      .map(([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td><code>${escapeHtml(String(v))}</code></td></tr>`);
    parts.push(`<table>${rows.join('')}</table>`);
    const n = attempt(() => normalizeUrn(input));
    if ('value' in n) parts.push(`<p>Normalized (RFC 8141 §3.1): <code>${escapeHtml(n.value)}</code></p>`);
  }
  if ('error' in urn) {
    // A malformed URN is not sent to any resolver.
  } else if (resolve) {
    parts.push('<h3>Resolution (1995 draft §3)</h3>');
    try {
      const result = await resolve(input);
      parts.push(`<div class="resolution">${renderResolution(result, (u) => `/?uri=${encodeURIComponent(u)}`)}</div>`);
    } catch (e) {
      parts.push(`<p class="bad" role="alert">Could not resolve: ${escapeHtml(e instanceof Error ? e.message : String(e))}</p>`);
    }
  } else {
    parts.push(`<p class="note">This ${mode === 'serve' ? 'resolver' : 'gateway'} was started without a way to resolve URNs.</p>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** The form, first on the page, filled with what was asked. */
function form(uri: string, compare: string): string {
  return `<h1>urikit: look at a URI or URN</h1>
<form method="get" action="/" role="search">
<label for="uri">URI, URN or relative reference</label>
<input type="text" id="uri" name="uri" value="${escapeHtml(uri)}" autocomplete="off" spellcheck="false" autofocus>
<label for="compare">Compare with (optional)</label>
<input type="text" id="compare" name="compare" value="${escapeHtml(compare)}" autocomplete="off" spellcheck="false">
<button type="submit">Look</button>
</form>`;
}

/**
 * Renders the whole page for one request; every piece of the input is
 * escaped before it is written (the page is fed hostile input in its tests).
 *
 * @example
 * ```ts
 * const html = await renderPage({ uri: 'http://a/b?c<d>', mode: 'serve' });
 * html.includes('http://a/b?c&lt;d&gt;') // true
 * html.includes('c<d>') // false
 * ```
 */
export async function renderPage(input: PageInput): Promise<string> {
  const uri = input.uri ?? '';
  const compare = input.compare ?? '';
  const title = input.mode === 'serve' ? 'urikit resolver' : 'urikit gateway';
  const out: string[] = [form(uri.slice(0, MAX_INPUT), compare.slice(0, MAX_INPUT))];
  if (uri.length > MAX_INPUT || compare.length > MAX_INPUT) {
    out.push(`<p class="bad" role="alert">The input is longer than ${MAX_INPUT} characters; it was not analysed.</p>`);
    return htmlDocument(title, out.join('\n'));
  }
  if (uri !== '') {
    out.push('<section aria-labelledby="parsed"><h2 id="parsed">Parsed (2003 draft §3)</h2>');
    let ref = attempt(() => parse(uri, 'uri-reference'));
    let kind = 'URI';
    if ('error' in ref && hasNonAscii(uri)) {
      // RFC 3987 §2.2: an IRI may hold non-ASCII characters where a URI may not.
      const iri = attempt(() => parse(uri, 'iri-reference'));
      if ('value' in iri) {
        ref = iri;
        kind = 'IRI (RFC 3987), not a URI until mapped (RFC 3987 §3.1)';
      }
    }
    if ('error' in ref) {
      out.push(`<p class="bad" role="alert">Invalid: ${escapeHtml(ref.error)}</p>`);
      if (ref.offset !== undefined) out.push(`<p>Error at offset ${ref.offset}:</p>${markAt(uri, ref.offset)}`);
    } else {
      out.push(`<p class="good">Valid ${ref.value.scheme === undefined ? `relative reference${kind === 'URI' ? '' : ` (${kind})`}` : kind}.</p>`);
      out.push(diagram(ref.value), userinfoApart(ref.value), componentTable(ref.value));
      const n = attempt(() => normalize(uri));
      if ('value' in n) out.push(`<p>Normalized (2003 draft §6.2.2–§6.2.3): <code class="normalized">${escapeHtml(n.value)}</code></p>`);
    }
    out.push(lintList(uri), '</section>');
    if (compare !== '') out.push(comparison(uri, compare));
    if (schemeOf(uri) === 'urn') out.push(await urnSection(uri, input.resolveUrn, input.mode));
  }
  return htmlDocument(title, out.join('\n'));
}
