/**
 * The `gopher` scheme (RFC 4266 §2, RFC 1738 §3.4; the 1993 draft's
 * "gopheraddress", which wrote the search after "?"):
 *
 * ```text
 *   gopher://<host>:<port>/<gophertype><selector>%09<search>%09<gopher+_string>
 * ```
 */
import { UriError } from '../errors.js';
import { authorityText, portNumber, requireHost } from './login.js';
import { decodeIn, encodeIn, keepPath, type CharsetOptions } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { GOPHER_RULES } from './rules.js';

/**
 * The typed view of a gopher URL (RFC 4266 §2.1). Text is percent-decoded.
 *
 * @example
 * ```ts
 * const g: GopherUrl = gopherScheme.parse(parse('gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles'));
 * g.type // "0"
 * g.selector // "0/Weather/California/Los Angeles"
 * ```
 */
export interface GopherUrl {
  host: string;
  port?: number;
  /** The one-character Gopher item type; `"1"` (a menu) when omitted (1993 draft, "Gopher"). */
  type: string;
  /** True when the URL omitted the type and selector (`gopher://host/`). */
  typeOmitted?: boolean;
  /** The selector string. */
  selector: string;
  /** The search string, after the first `%09` (RFC 4266 §2.1) or, in the 1993 form, after `?`. */
  search?: string;
  /** The Gopher+ string, after the second `%09` (RFC 4266 §2.1). */
  gopherPlus?: string;
  /** True when the search was written after "?" (1993 draft "gopheraddress") rather than `%09`. */
  searchAfterQuestionMark?: boolean;
}

// RFC 4266 §2.1: selector, search and gopher+ string keep pchar and "/" (keepPath); TAB and the rest are encoded.
/** The offset of the next "%09" (RFC 4266 §2.1: the encoded TAB) at or after `from`, or -1. */
function nextTab(text: string, from: number): number {
  for (let i = text.indexOf('%', from); i >= 0; i = text.indexOf('%', i + 1)) {
    if (text.charCodeAt(i + 1) === 0x30 && text.charCodeAt(i + 2) === 0x39) return i;
  }
  return -1;
}

/**
 * A `gopher` codec (RFC 4266) that reads and writes selectors and search
 * strings in `opts.charset` (UTF-8 by default, or ISO-8859-1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc4266#section-2
 * @example
 * ```ts
 * gopherCodec({ charset: 'iso-8859-1' }).parse(parse('gopher://h/0Caf%E9%09th%E9')) // { host: 'h', type: '0', selector: 'Café', search: 'thé' }
 * ```
 */
export function gopherCodec(opts?: CharsetOptions): SchemeCodec<GopherUrl> {
  const charset = opts?.charset ?? 'utf-8';
  const decodeText = (text: string, start?: number, end?: number): string => decodeIn(charset, text, start, end);
  const encodeText = (value: string, keep: (code: number) => boolean): string => encodeIn(charset, value, keep);
  const codec: SchemeCodec<GopherUrl> = {
    ...GOPHER_RULES,
    validate(ref) {
      codec.parse(ref);
    },
    parse(ref) {
      const out: GopherUrl = { host: requireHost(ref), type: '1', selector: '' };
      const port = portNumber(ref);
      if (port !== undefined) out.port = port;
      const path = ref.path;
      if (path.length <= 1) {
        out.typeOmitted = true;
      } else {
        if (path.charCodeAt(1) === 0x25) throw new UriError('bad-scheme-specific-part', 1, path);
        out.type = path[1]!;
        const tab1 = nextTab(path, 2);
        out.selector = decodeText(path, 2, tab1 < 0 ? path.length : tab1);
        if (tab1 >= 0) {
          const tab2 = nextTab(path, tab1 + 3);
          out.search = decodeText(path, tab1 + 3, tab2 < 0 ? path.length : tab2);
          if (tab2 >= 0) out.gopherPlus = decodeText(path, tab2 + 3);
        }
      }
      if (ref.query !== undefined) {
        // 1993 draft "gopheraddress": gopher://hostport [/ gtype [selector]] [? search]
        if (out.search !== undefined) throw new UriError('bad-scheme-specific-part', path.length, path);
        out.search = decodeText(ref.query);
        out.searchAfterQuestionMark = true;
      }
      return out;
    },
    build(f) {
      let s = `gopher:${authorityText(undefined, f.host, f.port)}/`;
      if (!(f.typeOmitted && f.type === '1' && f.selector === '')) s += f.type + encodeText(f.selector, keepPath);
      if (f.search !== undefined && f.searchAfterQuestionMark) return `${s}?${encodeText(f.search, keepPath)}`;
      if (f.search !== undefined || f.gopherPlus !== undefined) {
        s += `%09${encodeText(f.search ?? '', keepPath)}`;
        if (f.gopherPlus !== undefined) s += `%09${encodeText(f.gopherPlus, keepPath)}`;
      }
      return s;
    },
  };
  return codec;
}

/**
 * The `gopher` codec (RFC 4266): port 70, default type `1`; text read as
 * UTF-8 ({@link gopherCodec} for another charset).
 *
 * @see https://www.rfc-editor.org/rfc/rfc4266#section-2
 * @example
 * ```ts
 * gopherScheme.parse(parse('gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles'))
 * // { host: 'spinaltap.micro.umn.edu', type: '0', selector: '0/Weather/California/Los Angeles' }
 * ```
 */
export const gopherScheme: SchemeCodec<GopherUrl> = gopherCodec();
