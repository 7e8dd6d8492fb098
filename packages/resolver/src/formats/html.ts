/**
 * text/html resolution results (1995 draft §3.4.3: "allows the URLs to be
 * displayed as active links"): small, self-contained pages, and the HTML
 * escaping of everything the resolver, the web page and the gateway print:
 * every character that could end a text node or an attribute value is
 * replaced by its character reference (HTML Living Standard §13.1.2, §13.5).
 */
import { schemeOf } from 'urikit';

// The five characters that change meaning in text or in a quoted attribute.
const REPLACEMENT: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for an HTML text node or a double- or single-quoted
 * attribute value; one pass over the string.
 *
 * @example
 * ```ts
 * escapeHtml('<a href="x">') // '&lt;a href=&quot;x&quot;&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // & " ' < >, and the C0 controls other than TAB LF CR, which HTML forbids in text
    if (c === 0x26 || c === 0x22 || c === 0x27 || c === 0x3c || c === 0x3e || (c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f) {
      out += text.slice(last, i);
      const ch = text[i] as string;
      out += REPLACEMENT[ch] ?? `&#xFFFD;`;
      last = i + 1;
    }
  }
  return last === 0 ? text : out + text.slice(last);
}

/**
 * True for URLs a browser may follow from a link: never `javascript:`,
 * `data:` or `vbscript:` (RFC 3986 §3.1: the scheme, case-insensitive),
 * and never a URL with white space or controls, which a browser drops
 * before reading the scheme (`java<TAB>script:`).
 */
function safeHref(url: string): boolean {
  for (let i = 0; i < url.length; i++) if (url.charCodeAt(i) <= 0x20 || url.charCodeAt(i) === 0x7f) return false;
  const scheme = schemeOf(url);
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
 * htmlLink('java\tscript:alert(1)') // '<code>java\tscript:alert(1)</code>'
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
