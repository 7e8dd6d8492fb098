/**
 * HTML escaping for everything the web page and the gateway print: every
 * character that could end a text node or an attribute value is replaced
 * by its character reference (HTML Living Standard §13.1.2, §13.5).
 */

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
