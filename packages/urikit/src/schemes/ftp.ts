/**
 * The `ftp` scheme (RFC 1738 §3.2; the 1997 draft §4.3.1 for empty versus
 * absent user and password; the 1993 draft's "fileaddress"):
 *
 * ```text
 *   ftp://<user>:<password>@<host>:<port>/<cwd1>/.../<cwdN>/<name>;type=<typecode>
 *         \_____________________________/ \___________________/\___/ \__________/
 *                    login                     directories      name   typecode
 * ```
 */
import { CLASS, PCHAR } from '../chars.js';
import { UriError } from '../errors.js';
import type { UriReference } from '../types.js';
import { authorityText, joinUserinfo, portNumber, requireHost, splitUserinfo } from './login.js';
import { decodeIn, encodeIn, type CharsetOptions } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { FTP_RULES, typecodeAt } from './rules.js';

/**
 * The typed view of an ftp URL (RFC 1738 §3.2). All text is percent-decoded.
 *
 * @example
 * ```ts
 * const f: FtpUrl = { host: 'host.com', directories: ['pub'], name: 'a.txt', typecode: 'i' };
 * ftpScheme.build(f) // "ftp://host.com/pub/a.txt;type=i"
 * ```
 */
export interface FtpUrl {
  /** `undefined`: no user given, so the anonymous convention applies (1993 draft, "FTP"); `""`: an empty user (`ftp://@host/`). */
  user?: string;
  /** `undefined`: no password; `""`: an empty one (`ftp://foo:@host/`) (1997 draft §4.3.1). */
  password?: string;
  host: string;
  port?: number;
  /** The `<cwd>` segments, one CWD command each (RFC 1738 §3.2.2). */
  directories: string[];
  /** The last segment; `""` for a directory (`.../`), `undefined` when the URL has no url-path at all. */
  name?: string;
  /** `a` (ASCII), `i` (image), `d` (directory listing) from `;type=` (RFC 1738 §3.2.2), in lower case. */
  typecode?: 'a' | 'i' | 'd';
}

/**
 * True when the FTP URL leaves user and password to the anonymous
 * convention: user "anonymous", the user's mail address as password
 * (1993 draft, "FTP"; RFC 1738 §3.2.1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.2
 * @example
 * ```ts
 * isAnonymousFtp(ftpScheme.parse(parse('ftp://host.com/'))) // true
 * isAnonymousFtp(ftpScheme.parse(parse('ftp://@host.com/'))) // false (an empty user name was given)
 * ```
 */
export function isAnonymousFtp(url: FtpUrl): boolean {
  // Not an FtpUrl (null, a string, ...): false, as for any predicate.
  if (typeof url !== 'object' || url === null || typeof url.host !== 'string') return false;
  return url.user === undefined;
}

// RFC 1738 §3.2.2: fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ];
// ";" and "/" are reserved, so a literal ";" only begins ";type=".
const keepInSegment = (c: number): boolean => c !== 0x3b && ((CLASS[c]! & PCHAR) !== 0 || c === 0x3f);

/** The url-path of an FTP URL: RFC 1738 folds a literal "?" into the segment. */
function urlPath(ref: UriReference): string {
  return ref.query === undefined ? ref.path : `${ref.path}?${ref.query}`;
}

/**
 * An `ftp` codec (RFC 1738 §3.2) that reads and writes the octets of names
 * in `opts.charset` (UTF-8 by default; ISO-8859-1 for the Latin-1 names of
 * the 1990s, `ftp://h/caf%E9.txt`).
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.2
 * @example
 * ```ts
 * ftpCodec({ charset: 'iso-8859-1' }).parse(parse('ftp://h/pub/caf%E9.txt')).name // "café.txt"
 * ftpCodec().parse(parse('ftp://h/pub/caf%E9.txt')).name // "caf\uFFFD.txt"
 * ftpCodec({ charset: 'iso-8859-1' }).build({ host: 'h', directories: [], name: 'café' }) // "ftp://h/caf%E9"
 * ```
 */
export function ftpCodec(opts?: CharsetOptions): SchemeCodec<FtpUrl> {
  const charset = opts?.charset ?? 'utf-8';
  const decodeText = (text: string, start?: number, end?: number): string => decodeIn(charset, text, start, end);
  const encodeText = (value: string, keep: (code: number) => boolean): string => encodeIn(charset, value, keep);
  const codec: SchemeCodec<FtpUrl> = {
    ...FTP_RULES,
    validate(ref) {
      codec.parse(ref);
    },
    parse(ref) {
      const host = requireHost(ref);
      const out: FtpUrl = { ...splitUserinfo(ref.userinfo), host, directories: [] };
      if (out.user !== undefined) out.user = decodeText(out.user);
      if (out.password !== undefined) out.password = decodeText(out.password);
      const port = portNumber(ref);
      if (port !== undefined) out.port = port;
      let path = urlPath(ref);
      if (path === '') return out;
      const t = typecodeAt(path);
      if (t >= 0) {
        const code = path.charCodeAt(t + 6) | 0x20;
        // ftptype = "A" | "I" | "D" | "a" | "i" | "d"
        if (code !== 0x61 && code !== 0x69 && code !== 0x64) throw new UriError('bad-scheme-specific-part', t + 6, path);
        out.typecode = String.fromCharCode(code) as 'a' | 'i' | 'd';
        path = path.slice(0, t);
      }
      // The url-path follows the "/" that ends the login (RFC 1738 §3.1).
      let start = 1;
      for (let i = 1; i <= path.length; i++) {
        const c = path.charCodeAt(i);
        if (i === path.length || c === 0x2f) {
          const segment = decodeText(path, start, i);
          if (i === path.length) out.name = segment;
          else out.directories.push(segment);
          start = i + 1;
        } else if (c === 0x3b) {
          throw new UriError('bad-scheme-specific-part', i, path);
        }
      }
      return out;
    },
    build(f) {
      let s = `ftp:${authorityText(joinUserinfo(
        f.user === undefined ? undefined : encodeText(f.user, keepInLogin),
        f.password === undefined ? undefined : encodeText(f.password, keepInLogin),
      ), f.host, f.port)}`;
      if (f.name === undefined && f.directories.length === 0 && f.typecode === undefined) return s;
      for (const d of f.directories) s += `/${encodeText(d, keepInSegment)}`;
      s += `/${encodeText(f.name ?? '', keepInSegment)}`;
      if (f.typecode !== undefined) s += `;type=${f.typecode}`;
      return s;
    },
  };
  return codec;
}

/**
 * The `ftp` codec (RFC 1738 §3.2): port 21, host required, empty path is
 * `/`; names read as UTF-8 ({@link ftpCodec} for another charset).
 *
 * @see https://www.rfc-editor.org/rfc/rfc1738#section-3.2
 * @example
 * ```ts
 * ftpScheme.parse(parse('ftp://foo:@host.com/pub/a.txt;type=i'))
 * // { user: 'foo', password: '', host: 'host.com', directories: ['pub'], name: 'a.txt', typecode: 'i' }
 * ```
 */
export const ftpScheme: SchemeCodec<FtpUrl> = ftpCodec();

// RFC 1738 §3.1: user and password: any ":", "@" or "/" must be encoded.
const keepInLogin = (c: number): boolean => c !== 0x3a && c !== 0x40 && (CLASS[c]! & PCHAR) !== 0;
