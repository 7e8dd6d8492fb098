/**
 * The `file` scheme (RFC 8089 §2 and Appendix E):
 *
 * ```text
 *   file:///etc/fstab            file-auth empty: the local machine
 *   file://localhost/etc/fstab   the same machine, named (RFC 8089 §3)
 *   file:/etc/fstab              no authority (local-path, RFC 8089 §2)
 *   file:///c:/path/to/file      a DOS drive letter (Appendix E.2)
 *   file://server/share/a.txt    a UNC path (Appendix E.3.1)
 * ```
 */
import { UriError } from '../errors.js';
import { decodeText, encodeText, keepPath } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { FILE_RULES, driveLetterAt } from './rules.js';

/**
 * The typed view of a file URI (RFC 8089 §2).
 *
 * @example
 * ```ts
 * const f: FileUrl = { host: '', path: '/etc/fstab' };
 * fileScheme.build(f) // "file:///etc/fstab"
 * fileScheme.parse(parse('file:/etc/fstab')) // { path: '/etc/fstab' }
 * ```
 */
export interface FileUrl {
  /**
   * `undefined`: no authority (`file:/path`); `""`: empty authority
   * (`file:///path`); otherwise the host, `localhost` included.
   */
  host?: string;
  /** The percent-decoded path, "/"-separated, as written (`/c:/x`, `c:/x`, `/etc/fstab`). */
  path: string;
  /** The DOS drive letter with its colon (`"c:"`) when the path begins with one (Appendix E.2; `c|` is read as `c:`, E.2.2). */
  drive?: string;
}

/**
 * The `file` codec (RFC 8089): no port, `localhost` is the local machine.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8089#section-2
 * @example
 * ```ts
 * fileScheme.parse(parse('file:///c:/path/to/file.txt')) // { host: '', path: '/c:/path/to/file.txt', drive: 'c:' }
 * ```
 */
export const fileScheme: SchemeCodec<FileUrl> = {
  ...FILE_RULES,
  validate(ref) {
    fileScheme.parse(ref);
  },
  parse(ref) {
    // RFC 8089 §2: file-URI = file-scheme ":" file-hier-part; no query, no port.
    if (ref.query !== undefined) throw new UriError('bad-scheme-specific-part', ref.path.length, ref.path);
    if (ref.port !== undefined || ref.userinfo !== undefined) throw new UriError('bad-scheme-specific-part', 0, ref.host);
    const path = ref.path;
    const out: FileUrl = { path: decodeText(path) };
    if (ref.host !== undefined) {
      // auth-path = [ file-auth ] path-absolute
      if (path.charCodeAt(0) !== 0x2f) throw new UriError('bad-scheme-specific-part', 0, path);
      out.host = ref.host;
    } else if (path.charCodeAt(0) !== 0x2f && !driveLetterAt(path, 0)) {
      // local-path = path-absolute, or a bare drive letter (Appendix E.2)
      throw new UriError('bad-scheme-specific-part', 0, path);
    }
    const d = out.path.charCodeAt(0) === 0x2f ? 1 : 0;
    if (driveLetterAt(out.path, d)) out.drive = `${out.path[d]}:`;
    return out;
  },
  build(f) {
    let s = 'file:';
    if (f.host !== undefined) s += `//${f.host}`;
    return s + encodeText(f.path, keepPath);
  },
};
