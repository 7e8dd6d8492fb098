/**
 * The `prospero` scheme (RFC 4157 §2, RFC 1738 §3.11; the 1993 draft's
 * "prosperolink", whose version and attributes follow the host-specific
 * name, each introduced by `%00`):
 *
 * ```text
 *   prospero://<host>:<port>/<hsoname>%00<version>%00<attribute>%00<attribute>   (1993)
 *   prospero://<host>:<port>/<hsoname>;<field>=<value>                          (RFC 1738)
 * ```
 */
import { CLASS, PCHAR } from '../chars.js';
import { UriError } from '../errors.js';
import { authorityText, portNumber, requireHost } from './login.js';
import { decodeText, encodeText } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { PROSPERO_RULES } from './rules.js';

/**
 * The typed view of a prospero URL. Text is percent-decoded.
 *
 * @example
 * ```ts
 * const p: ProsperoUrl = prosperoScheme.parse(parse('prospero://host/a/b%001%00x%00y'));
 * p.hsoname // "a/b"
 * p.version // "1"
 * ```
 */
export interface ProsperoUrl {
  host: string;
  port?: number;
  /** The host-specific object name. */
  hsoname: string;
  /** 1993 draft: the version after the first `%00` (may be `""` when attributes follow). */
  version?: string;
  /** 1993 draft: the attributes, each after another `%00`. */
  attributes?: string[];
  /** RFC 1738 §3.11: the `;field=value` pairs, in order. */
  fields?: Array<[string, string]>;
}

const keepName = (c: number): boolean => c !== 0x3b && ((CLASS[c]! & PCHAR) !== 0 || c === 0x2f);
const keepField = (c: number): boolean => c !== 0x3b && c !== 0x3d && c !== 0x2f && (CLASS[c]! & PCHAR) !== 0;

/** Offsets of each "%00" in `text[from, to)` (the escaped string terminator). */
function nulOffsets(text: string, from: number, to: number): number[] {
  const at: number[] = [];
  for (let i = text.indexOf('%', from); i >= 0 && i < to; i = text.indexOf('%', i + 1)) {
    if (text.charCodeAt(i + 1) === 0x30 && text.charCodeAt(i + 2) === 0x30) at.push(i);
  }
  return at;
}

/**
 * The `prospero` codec (RFC 4157): port 1525.
 *
 * @see https://www.rfc-editor.org/rfc/rfc4157#section-2
 * @example
 * ```ts
 * prosperoScheme.parse(parse('prospero://host/a/b%001%00x%00y'))
 * // { host: 'host', hsoname: 'a/b', version: '1', attributes: ['x', 'y'] }
 * ```
 */
export const prosperoScheme: SchemeCodec<ProsperoUrl> = {
  ...PROSPERO_RULES,
  validate(ref) {
    prosperoScheme.parse(ref);
  },
  parse(ref) {
    const out: ProsperoUrl = { host: requireHost(ref), hsoname: '' };
    const port = portNumber(ref);
    if (port !== undefined) out.port = port;
    const path = ref.path;
    if (path.length < 2 || ref.query !== undefined) throw new UriError('bad-scheme-specific-part', 0, path);
    const semi = path.indexOf(';');
    const end = semi < 0 ? path.length : semi;
    const nuls = nulOffsets(path, 1, end);
    out.hsoname = decodeText(path, 1, nuls.length > 0 ? nuls[0]! : end);
    if (nuls.length > 0) {
      out.version = decodeText(path, nuls[0]! + 3, nuls.length > 1 ? nuls[1]! : end);
      // 1993 draft, "Prospero": attributes require the version, which may be empty.
      if (nuls.length > 1) {
        out.attributes = [];
        for (let k = 1; k < nuls.length; k++) out.attributes.push(decodeText(path, nuls[k]! + 3, k + 1 < nuls.length ? nuls[k + 1]! : end));
      }
    }
    if (semi >= 0) {
      out.fields = [];
      for (const pair of path.slice(semi + 1).split(';')) {
        const eq = pair.indexOf('=');
        if (eq < 0) throw new UriError('bad-scheme-specific-part', semi, path);
        out.fields.push([decodeText(pair, 0, eq), decodeText(pair, eq + 1)]);
      }
    }
    return out;
  },
  build(f) {
    let s = `prospero:${authorityText(undefined, f.host, f.port)}/${encodeText(f.hsoname, keepName)}`;
    if (f.version !== undefined || f.attributes !== undefined) s += `%00${encodeText(f.version ?? '', keepField)}`;
    for (const a of f.attributes ?? []) s += `%00${encodeText(a, keepField)}`;
    for (const [k, v] of f.fields ?? []) s += `;${encodeText(k, keepField)}=${encodeText(v, keepField)}`;
    return s;
  },
};
