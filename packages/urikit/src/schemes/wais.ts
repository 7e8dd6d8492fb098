/**
 * The `wais` scheme (RFC 4156 §2, RFC 1738 §3.9; the 1993 draft's
 * "waisaddress" = `waisindex | waisdoc`):
 *
 * ```text
 *   wais://<host>:<port>/<database>                    the database
 *   wais://<host>:<port>/<database>?<search>           a search
 *   wais://<host>:<port>/<database>/<wtype>/<wpath>    a document
 * ```
 */
import { UriError } from '../errors.js';
import { authorityText, portNumber, requireHost } from './login.js';
import { decodeText, encodeText, keepPath, keepSegment } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { WAIS_RULES } from './rules.js';

/**
 * The typed view of a wais URL (RFC 4156 §2). Text is percent-decoded.
 *
 * @example
 * ```ts
 * const w: WaisUrl = { host: 'quake.think.com', database: 'wais-discussion-archives', search: 'lynch' };
 * waisScheme.build(w) // "wais://quake.think.com/wais-discussion-archives?lynch"
 * ```
 */
export interface WaisUrl {
  host: string;
  port?: number;
  database: string;
  /** The search, for the index form. */
  search?: string;
  /** The document's type, for the document form. */
  wtype?: string;
  /** The document's id within the database ("digits/path" in the 1993 draft), for the document form. */
  wpath?: string;
}

/**
 * The `wais` codec (RFC 4156): port 210.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4156#section-2
 * @example
 * ```ts
 * waisScheme.parse(parse('wais://quake.think.com/wais-discussion-archives?lynch'))
 * // { host: 'quake.think.com', database: 'wais-discussion-archives', search: 'lynch' }
 * ```
 */
export const waisScheme: SchemeCodec<WaisUrl> = {
  ...WAIS_RULES,
  validate(ref) {
    waisScheme.parse(ref);
  },
  parse(ref) {
    const out: WaisUrl = { host: requireHost(ref), database: '' };
    const port = portNumber(ref);
    if (port !== undefined) out.port = port;
    const path = ref.path;
    if (path.length < 2) throw new UriError('bad-scheme-specific-part', 0, path);
    const s1 = path.indexOf('/', 1);
    out.database = decodeText(path, 1, s1 < 0 ? path.length : s1);
    if (s1 >= 0) {
      const s2 = path.indexOf('/', s1 + 1);
      if (s2 < 0 || ref.query !== undefined) throw new UriError('bad-scheme-specific-part', s1, path);
      out.wtype = decodeText(path, s1 + 1, s2);
      out.wpath = decodeText(path, s2 + 1);
    } else if (ref.query !== undefined) {
      out.search = decodeText(ref.query);
    }
    return out;
  },
  build(f) {
    let s = `wais:${authorityText(undefined, f.host, f.port)}/${encodeText(f.database, keepSegment)}`;
    if (f.wtype !== undefined) return `${s}/${encodeText(f.wtype, keepSegment)}/${encodeText(f.wpath ?? '', keepPath)}`;
    if (f.search !== undefined) s += `?${encodeText(f.search, keepPath)}`;
    return s;
  },
};
