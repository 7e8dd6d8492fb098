/**
 * Conversion between `file` URIs and local file-system paths, POSIX or
 * Windows (RFC 8089 §2, Appendix D and E). Pure string code: no
 * `node:path`, no `node:url`, so it runs in browsers too.
 */
import { UriError } from '../errors.js';
import { COMPONENT_MESSAGES, registerMessages } from '../messages.js';
import { componentsOf } from '../rfc3986-scanner.js';
import { decodeText, encodeText, keepPath } from './octets.js';
import { driveLetterAt } from './rules.js';

// The messages of the component codes this module throws (messages.ts).
registerMessages(COMPONENT_MESSAGES);

/**
 * Options of {@link fileUriToPath} and {@link pathToFileUri}.
 *
 * @example
 * ```ts
 * const opts: FilePathOptions = { windows: true };
 * fileUriToPath('file:///c:/path/to/file.txt', opts) // "c:\\path\\to\\file.txt"
 * fileUriToPath('file:///c:/path/to/file.txt') // "/c:/path/to/file.txt"
 * ```
 */
export interface FilePathOptions {
  /** Read or write Windows paths (`C:\dir`, `\\server\share`) instead of POSIX ones. */
  windows?: boolean;
}

/**
 * The local path a `file` URI names (RFC 8089 §2 and Appendix E).
 * POSIX: `file:///etc/fstab` and `file://localhost/etc/fstab` give
 * `/etc/fstab`; a remote host cannot be a POSIX path. Windows: drive
 * letters (E.2) and UNC hosts (E.3) give `C:\...` and `\\server\share\...`.
 * Throws `bad-scheme-specific-part` for what no path can represent
 * (an encoded separator or NUL).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8089#appendix-E
 * @example
 * ```ts
 * fileUriToPath('file:///etc/fstab') // '/etc/fstab'
 * fileUriToPath('file:///c:/path/to/file.txt', { windows: true }) // 'c:\\path\\to\\file.txt'
 * fileUriToPath('file://server/share/a.txt', { windows: true }) // '\\\\server\\share\\a.txt'
 * ```
 */
export function fileUriToPath(uri: string, opts?: FilePathOptions): string {
  const ref = componentsOf(uri, 'uri');
  if (ref.scheme!.toLowerCase() !== 'file') throw new UriError('unknown-scheme', 0, uri);
  if (ref.query !== undefined || ref.port !== undefined || ref.userinfo !== undefined) throw new UriError('bad-scheme-specific-part', 5, uri);
  const host = ref.host === undefined || ref.host.toLowerCase() === 'localhost' ? '' : ref.host;
  const raw = ref.path;
  const offset = uri.indexOf(raw, 5);
  // Each segment is decoded on its own, so an encoded separator stays visible.
  const segments = raw.split('/');
  const decoded: string[] = [];
  let at = offset;
  for (const s of segments) {
    const text = decodeText(s);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0 || c === 0x2f || (opts?.windows && c === 0x5c)) throw new UriError('bad-scheme-specific-part', at, uri);
    }
    decoded.push(text);
    at += s.length + 1;
  }
  const path = decoded.join('/');
  if (!opts?.windows) {
    if (host !== '') throw new UriError('bad-scheme-specific-part', 7, uri);
    if (path.charCodeAt(0) !== 0x2f) throw new UriError('bad-scheme-specific-part', offset, uri);
    return path;
  }
  if (host !== '') {
    // Appendix E.3.1: file://server/share/a.txt is \\server\share\a.txt
    return `\\\\${decodeText(host)}${path.replace(/\//g, '\\')}`;
  }
  // Appendix E.3.2: file:////server/share and file://///server/share keep the UNC in the path.
  const unc = path.startsWith('///') ? 3 : path.startsWith('//') ? 2 : -1;
  if (unc >= 0) return `\\\\${path.slice(unc).replace(/\//g, '\\')}`;
  const d = path.charCodeAt(0) === 0x2f ? 1 : 0;
  if (driveLetterAt(path, d)) {
    // Appendix E.2: file:///c:/x and file:c:/x; E.2.2: c| is c:
    const rest = path.slice(d + 2);
    return `${path[d]}:${rest === '' ? '\\' : rest.replace(/\//g, '\\')}`;
  }
  return path.replace(/\//g, '\\');
}

/**
 * The `file` URI of an absolute local path (RFC 8089 §2 and Appendix E):
 * `file:///` plus the encoded path, or for a Windows UNC path
 * `file://server/share/...`. Relative paths are refused
 * (`bad-component`): resolving them needs a current directory, which
 * this pure function does not have.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8089#appendix-E
 * @example
 * ```ts
 * pathToFileUri('/tmp/a b#1') // 'file:///tmp/a%20b%231'
 * pathToFileUri('C:\\Program Files\\x', { windows: true }) // 'file:///C:/Program%20Files/x'
 * pathToFileUri('\\\\server\\share\\a.txt', { windows: true }) // 'file://server/share/a.txt'
 * ```
 */
export function pathToFileUri(path: string, opts?: FilePathOptions): string {
  if (path.indexOf('\u0000') >= 0) throw new UriError('bad-component', path.indexOf('\u0000'), path);
  if (!opts?.windows) {
    if (path.charCodeAt(0) !== 0x2f) throw new UriError('bad-component', 0, path);
    return `file://${encodeText(path.replace(/^\/\/+/, '/'), keepPath)}`;
  }
  let p = path.replace(/\\/g, '/');
  // Win32 file namespace prefixes: \\?\C:\x and \\?\UNC\server\share
  if (p.startsWith('//?/UNC/') || p.startsWith('//./UNC/')) p = `//${p.slice(8)}`;
  else if (p.startsWith('//?/') || p.startsWith('//./')) p = p.slice(4);
  if (p.startsWith('//')) {
    const slash = p.indexOf('/', 2);
    const host = slash < 0 ? p.slice(2) : p.slice(2, slash);
    if (host === '') throw new UriError('bad-component', 2, path);
    return `file://${encodeText(host, (c) => keepPath(c) && c !== 0x2f && c !== 0x3a && c !== 0x40)}${slash < 0 ? '/' : encodeText(p.slice(slash), keepPath)}`;
  }
  if (!driveLetterAt(p, 0)) throw new UriError('bad-component', 0, path);
  return `file:///${p[0]}:${encodeText(p.slice(2) === '' ? '/' : p.slice(2), keepPath)}`;
}
