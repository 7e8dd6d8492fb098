/**
 * The `news` and `nntp` schemes (RFC 5538 §2; RFC 1738 §3.6–3.7; the 1993
 * draft's "newsaddress": `news:groupart`, `groupart = * | group | article`).
 *
 * ```text
 *   news:comp.infosystems.www.servers.unix      a newsgroup
 *   news:1234@example.com                       an article (its Message-ID has "@")
 *   news:*                                      every group
 *   nntp://host:119/<newsgroup-name>/<article-number>
 * ```
 */
import { UriError } from '../errors.js';
import { authorityText, portNumber, requireHost } from './login.js';
import { decodeIn, decodeText, encodeIn, encodeText, keepSegment, type CharsetOptions } from './octets.js';
import type { SchemeCodec } from './codec.js';
import { NEWS_RULES, NNTP_RULES } from './rules.js';

/**
 * The typed view of a news URL (RFC 5538 §2.1).
 *
 * @example
 * ```ts
 * const n: NewsUrl = { kind: 'article', messageId: 'p0f8k@example.com' };
 * newsScheme.build(n) // "news:p0f8k@example.com"
 * newsScheme.parse(parse('news:*')) // { kind: 'all' }
 * ```
 */
export type NewsUrl =
  | { kind: 'all'; host?: string; port?: number }
  | { kind: 'group'; group: string; host?: string; port?: number }
  | { kind: 'article'; messageId: string; host?: string; port?: number };

/**
 * The typed view of an nntp URL (RFC 5538 §2.2).
 *
 * @example
 * ```ts
 * const n: NntpUrl = { host: 'news.example.com', group: 'comp.lang.c', articleNumber: 42 };
 * nntpScheme.build(n) // "nntp://news.example.com/comp.lang.c/42"
 * ```
 */
export interface NntpUrl {
  host: string;
  port?: number;
  group: string;
  /** The article number; `undefined` for the whole group. */
  articleNumber?: number;
}

/**
 * A `news` codec (RFC 5538 §2.1) that reads and writes groups and
 * Message-IDs in `opts.charset` (UTF-8 by default, or ISO-8859-1).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5538#section-2
 * @example
 * ```ts
 * newsCodec({ charset: 'iso-8859-1' }).parse(parse('news:de.talk.caf%E9')) // { kind: 'group', group: 'de.talk.café' }
 * newsCodec().parse(parse('news:de.talk.caf%E9')) // { kind: 'group', group: 'de.talk.caf\uFFFD' }
 * ```
 */
export function newsCodec(opts?: CharsetOptions): SchemeCodec<NewsUrl> {
  const charset = opts?.charset ?? 'utf-8';
  const codec: SchemeCodec<NewsUrl> = {
    ...NEWS_RULES,
    validate(ref) {
      codec.parse(ref);
    },
    parse(ref) {
      let text = ref.path;
      const server: { host?: string; port?: number } = {};
      if (ref.host !== undefined) {
        // RFC 5538 §2.1: news://server/group
        server.host = ref.host;
        const port = portNumber(ref);
        if (port !== undefined) server.port = port;
        text = text.slice(1);
      }
      if (ref.query !== undefined || text === '' || text.indexOf('/') >= 0) throw new UriError('bad-scheme-specific-part', 0, ref.path);
      if (text === '*') return { kind: 'all', ...server };
      const value = decodeIn(charset, text);
      if (value.indexOf('@') >= 0) return { kind: 'article', messageId: value, ...server };
      return { kind: 'group', group: value, ...server };
    },
    build(f) {
      const server = f.host !== undefined ? `${authorityText(undefined, f.host, f.port)}/` : '';
      if (f.kind === 'all') return `news:${server}*`;
      return `news:${server}${encodeIn(charset, f.kind === 'article' ? f.messageId : f.group, keepSegment)}`;
    },
  };
  return codec;
}

/**
 * The `news` codec (RFC 5538 §2.1): an optional server, then a group,
 * an article (its Message-ID contains "@", 1993 draft "News") or `*`;
 * text read as UTF-8 ({@link newsCodec} for another charset).
 *
 * @see https://www.rfc-editor.org/rfc/rfc5538#section-2
 * @example
 * ```ts
 * newsScheme.parse(parse('news:comp.infosystems.www.servers.unix')) // { kind: 'group', group: 'comp.infosystems.www.servers.unix' }
 * ```
 */
export const newsScheme: SchemeCodec<NewsUrl> = newsCodec();

/**
 * The `nntp` codec (RFC 5538 §2.2): port 119, a server, a group, an optional article number.
 *
 * @see https://www.rfc-editor.org/rfc/rfc5538#section-2
 * @example
 * ```ts
 * nntpScheme.parse(parse('nntp://news.example.com/comp.lang.c/42')) // { host: 'news.example.com', group: 'comp.lang.c', articleNumber: 42 }
 * ```
 */
export const nntpScheme: SchemeCodec<NntpUrl> = {
  ...NNTP_RULES,
  validate(ref) {
    nntpScheme.parse(ref);
  },
  parse(ref) {
    const out: NntpUrl = { host: requireHost(ref), group: '' };
    const port = portNumber(ref);
    if (port !== undefined) out.port = port;
    const path = ref.path;
    const slash = path.indexOf('/', 1);
    if (path.length < 2 || ref.query !== undefined) throw new UriError('bad-scheme-specific-part', 0, path);
    out.group = decodeText(path, 1, slash < 0 ? path.length : slash);
    if (slash >= 0) {
      const digits = path.slice(slash + 1);
      // article-number = 1*16DIGIT (RFC 5538 §2.2 via RFC 3977)
      if (digits.length === 0 || digits.length > 16) throw new UriError('bad-scheme-specific-part', slash + 1, path);
      for (let i = 0; i < digits.length; i++) {
        const d = digits.charCodeAt(i);
        if (d < 0x30 || d > 0x39) throw new UriError('bad-scheme-specific-part', slash + 1 + i, path);
      }
      out.articleNumber = Number(digits);
    }
    return out;
  },
  build(f) {
    let s = `nntp:${authorityText(undefined, f.host, f.port)}/${encodeText(f.group, keepSegment)}`;
    if (f.articleNumber !== undefined) s += `/${f.articleNumber}`;
    return s;
  },
};
