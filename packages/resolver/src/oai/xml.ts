/**
 * The little XML the OAI-PMH responses need: escaped text and attributes
 * (XML 1.0 §2.4 character data, §3.1 attribute values), and a datestamp
 * in the protocol's UTC form.
 */

/** XML 1.0 §2.2 Char: a code point outside it cannot appear in a document, not even as a reference. */
function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}

/**
 * Text for element content or an attribute value: `&`, `<`, `>`, `"` escaped,
 * and characters XML cannot hold at all replaced by U+FFFD.
 *
 * @example
 * ```ts
 * xmlEscape('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 * xmlEscape('nul\u0000'); // 'nul\uFFFD'
 * ```
 */
export function xmlEscape(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else out += isXmlChar(cp) ? ch : '\uFFFD';
  }
  return out;
}

/**
 * An element with escaped text content (no element when the text is undefined).
 *
 * @example
 * ```ts
 * xmlElement('dc:title', 'A & B'); // '<dc:title>A &amp; B</dc:title>'
 * xmlElement('dc:title', undefined); // ''
 * ```
 */
export function xmlElement(name: string, text: string | undefined, attrs: Record<string, string | number | undefined> = {}): string {
  if (text === undefined) return '';
  return `<${name}${xmlAttrs(attrs)}>${xmlEscape(text)}</${name}>`;
}

/** XML 1.0 §3.3.3: a parser turns a literal tab, newline or carriage return of an attribute value into a space; a character reference keeps it. */
const ATTR_WHITESPACE: Record<string, string> = { '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

/**
 * Attributes, each ` name="value"`, leaving out the undefined ones; the
 * value reads back as it was (an echoed resumptionToken, §3.2).
 *
 * @example
 * ```ts
 * xmlAttrs({ verb: 'GetRecord', set: undefined }); // ' verb="GetRecord"'
 * xmlAttrs({ resumptionToken: 'a\tb' }); // ' resumptionToken="a&#9;b"'
 * ```
 */
export function xmlAttrs(attrs: Record<string, string | number | undefined>): string {
  let out = '';
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) out += ` ${k}="${xmlEscape(String(v)).replace(/[\t\n\r]/g, (c) => ATTR_WHITESPACE[c]!)}"`;
  return out;
}

/**
 * OAI-PMH §3.3.2: a datestamp in responses is `YYYY-MM-DDThh:mm:ssZ` (UTC, seconds).
 *
 * @example
 * ```ts
 * utcDatetime(Date.UTC(2026, 10, 24, 12, 0, 5, 999)); // '2026-11-24T12:00:05Z'
 * ```
 */
export function utcDatetime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
