/**
 * text/html resolution results (1995 draft §3.4.3: "allows the URLs to be
 * displayed as active links"): small, self-contained pages.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML content and attribute values.
 *
 * @example
 * ```ts
 * escapeHtml('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 * ```
 */
export function escapeHtml(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const e = ESCAPES[s[i]!];
    if (e !== undefined) { out += s.slice(last, i) + e; last = i + 1; }
  }
  return last === 0 ? s : out + s.slice(last);
}

/** True for URLs a browser may follow from a link: never `javascript:`, `data:` or `vbscript:`. */
function safeHref(url: string): boolean {
  const colon = url.indexOf(':');
  const scheme = colon > 0 ? url.slice(0, colon).toLowerCase() : '';
  return scheme !== 'javascript' && scheme !== 'data' && scheme !== 'vbscript';
}

/**
 * An `<a>` for a URL (its text escaped, its href only when safe to follow).
 *
 * @example
 * ```ts
 * htmlLink('ftp://elm.wnln.edu/pub/mirrors/phone-list.txt') // '<a href="ftp://elm.wnln.edu/pub/mirrors/phone-list.txt">ftp://elm.wnln.edu/pub/mirrors/phone-list.txt</a>'
 * htmlLink('http://a.test/?x=1&y=2', 'both') // '<a href="http://a.test/?x=1&amp;y=2">both</a>'
 * htmlLink('JavaScript:alert(1)') // '<code>JavaScript:alert(1)</code>'
 * ```
 */
export function htmlLink(url: string, text: string = url): string {
  return safeHref(url) ? `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>` : `<code>${escapeHtml(text)}</code>`;
}

/**
 * A whole page around `body` (already HTML).
 *
 * @example
 * ```ts
 * const page = htmlPage('urn:ex:a & b', '<p>Not found</p>');
 * page.startsWith('<!doctype html>') // true
 * page.includes('<title>urn:ex:a &amp; b</title>') // true
 * page.includes('<body>\n<p>Not found</p>\n</body>') // true
 * ```
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>`
    + '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}code,pre{font-family:ui-monospace,monospace}dt{font-weight:600}li{margin:.4rem 0}.meta{white-space:pre-wrap;color:#444}</style>'
    + `</head><body>\n${body}\n</body></html>\n`;
}
