/**
 * URN resolver discovery through DNS NAPTR records: the Dynamic Delegation
 * Discovery System (RFC 3402) as the URN application defines it (RFC 3404).
 *
 * ```text
 *   urn:example:a/b  --First Well Known Rule (RFC 3404)-->  example.urn.arpa
 *   NAPTR order pref flags service            regexp                         replacement
 *         100   10   ""   ""                 !^urn:example:(.*)$!res.test!  .          (non-terminal: look again)
 *         100   10   "u"  "http+I2L+I2Ls"   !^(.*)$!http://r/uri-res/I2L?\1!  .      (terminal: a URI)
 *         100   20   "s"  "http+N2L"         ""                             _http._tcp.r.test  (SRV)
 *         100   30   "a"  "http+N2L"         ""                             r.test     (addresses)
 * ```
 */
import type { Resolver } from 'node:dns/promises';
import { compileEre } from './ere.js';

/**
 * One NAPTR record as `node:dns` gives it (RFC 3403 §4.1).
 *
 * @example
 * ```ts
 * import type { Resolver } from 'node:dns/promises';
 * // An 'a' record: ask this host over the record's protocol, on its default port.
 * const r: NaptrRecord = { order: 100, preference: 50, flags: 'a', service: 'http+N2L+N2C+N2R', regexp: '', replacement: 'resolver.example.com.' };
 * const dns = { resolveNaptr: async () => [r] };
 * await discoverByNaptr('urn:example:a', { dns: dns as unknown as Resolver, service: 'I2L' })
 * // [{ kind: 'host', host: 'resolver.example.com', port: 80, protocol: 'http', service: 'http+N2L+N2C+N2R' }]
 * ```
 */
export interface NaptrRecord {
  flags: string;
  service: string;
  regexp: string;
  replacement: string;
  order: number;
  preference: number;
}

/**
 * Where a terminal NAPTR record points: a URI, or a host and port to ask.
 *
 * @example
 * ```ts
 * import type { Resolver } from 'node:dns/promises';
 * // An 's' record names an SRV record, which gives the host and the port (RFC 2782).
 * const dns = {
 *   resolveNaptr: async () => [{ order: 100, preference: 10, flags: 's', service: 'https+I2L', regexp: '', replacement: '_https._tcp.r.example.' }],
 *   resolveSrv: async () => [{ priority: 0, weight: 5, port: 8443, name: 'r1.example.' }],
 * };
 * const targets: NaptrTarget[] = await discoverByNaptr('urn:example:a', { dns: dns as unknown as Resolver, service: 'I2L' });
 * targets // [{ kind: 'host', host: 'r1.example', port: 8443, protocol: 'https', service: 'https+I2L' }]
 * ```
 */
export type NaptrTarget =
  | { kind: 'uri'; uri: string; service: string }
  | { kind: 'host'; host: string; port: number; protocol: 'http' | 'https'; service: string };

/**
 * A substitution expression `delim ere delim repl delim [flags]` (RFC 3402 §3.2).
 *
 * @example
 * ```ts
 * parseSubstitution('!^urn:cid:(.+)$!\\1!i') // { ere: '^urn:cid:(.+)$', repl: '\\1', caseInsensitive: true }
 * ```
 */
export function parseSubstitution(expr: string): { ere: string; repl: string; caseInsensitive: boolean } | undefined {
  // RFC 3402 §3.2: delim-char = "/" / "!" / <any non-digit or non-flag character other than backslash>
  const delim = expr[0];
  if (delim === undefined || delim === '\\' || (delim >= '0' && delim <= '9') || delim === 'i') return undefined;
  const fields: string[] = [];
  let cur = '';
  for (let i = 1; i < expr.length; i++) {
    const c = expr[i]!;
    if (c === '\\' && i + 1 < expr.length) {
      // An escaped delimiter is the delimiter itself; other escapes are kept for the ERE.
      cur += expr[i + 1] === delim ? delim : c + expr[i + 1];
      i++;
    } else if (c === delim) {
      fields.push(cur);
      cur = '';
    } else cur += c;
  }
  if (fields.length !== 2) return undefined;
  if (cur !== '' && cur !== 'i') return undefined;
  return { ere: fields[0]!, repl: fields[1]!, caseInsensitive: cur === 'i' };
}

// The longest Application Unique String the client matches a
// DNS-supplied expression against (matching is linear in it).
const MAX_AUS = 8192;

/**
 * Applies a NAPTR regexp to the Application Unique String, the URN
 * (RFC 3402 §3.2: the rules always apply to the original
 * URN); `undefined` when it does not match.
 *
 * @example
 * ```ts
 * applySubstitution('!^urn:cid:.+@([^\\.]+\\.)(.*)$!\\2!i', 'urn:cid:199606121851.1@bar.example.com') // 'example.com'
 * ```
 */
export function applySubstitution(expr: string, aus: string): string | undefined {
  const sub = parseSubstitution(expr);
  if (!sub || aus.length > MAX_AUS) return undefined;
  let m: (string | undefined)[] | undefined;
  try {
    // POSIX ERE (RFC 3402 §3.2) matched by a linear-time automaton: the
    // expression comes from DNS and must not be able to hang the client.
    m = compileEre(sub.ere, sub.caseInsensitive).exec(aus);
  } catch {
    return undefined;
  }
  if (!m) return undefined;
  // repl = *(string / backref); backref = "\" 1POS_DIGIT
  let out = '';
  for (let i = 0; i < sub.repl.length; i++) {
    const c = sub.repl[i]!;
    if (c === '\\' && i + 1 < sub.repl.length) {
      const d = sub.repl.charCodeAt(i + 1);
      out += d >= 0x31 && d <= 0x39 ? (m[d - 0x30] ?? '') : sub.repl[i + 1];
      i++;
    } else out += c;
  }
  return out;
}

/**
 * The protocol and resolution services of a service field:
 * `service-parms = [ [protocol] *("+" rs) ]` (RFC 3404, Service Parameters).
 *
 * @example
 * ```ts
 * parseServiceField('http+N2L+N2C') // { protocol: 'http', services: ['N2L', 'N2C'] }
 * ```
 */
export function parseServiceField(field: string): { protocol: string; services: string[] } {
  const parts = field.split('+');
  return { protocol: (parts[0] ?? '').toLowerCase(), services: parts.slice(1).map((s) => s.toUpperCase()) };
}

/** True when a terminal record offers `service` over HTTP (RFC 3404, Service Parameters; I2x and N2x name the same service for a URN, RFC 2483). */
function offers(field: string, service: string): 'http' | 'https' | undefined {
  const { protocol, services } = parseServiceField(field);
  if (protocol !== 'http' && protocol !== 'https') return undefined;
  if (services.length === 0) return protocol;
  const want = service.toUpperCase();
  const twin = want.startsWith('I2') ? `N2${want.slice(2)}` : want.startsWith('N2') ? `I2${want.slice(2)}` : want;
  return services.includes(want) || services.includes(twin) ? protocol : undefined;
}

/**
 * Options of {@link discoverByNaptr}.
 *
 * @example
 * ```ts
 * import type { Resolver } from 'node:dns/promises';
 * // A stand-in for the DNS that notes the names asked and knows none.
 * const asked: string[] = [];
 * const dns = { resolveNaptr: async (name: string) => { asked.push(name); return []; } };
 * const o: NaptrOptions = { dns: dns as unknown as Resolver, service: 'I2L', suffix: 'urn.example.net' };
 * await discoverByNaptr('urn:ISBN:0451450523', o) // []
 * asked // ['isbn.urn.example.net'] (the First Well Known Rule: the NID in lower case, then the suffix)
 * ```
 */
export interface NaptrOptions {
  /** The DNS resolver to ask (servers set with `setServers`). */
  dns: Resolver;
  /** The RFC 2483 service wanted, e.g. `I2L`. */
  service: string;
  /** The zone of the First Well Known Rule, `urn.arpa` by default (RFC 3404, First Well Known Rule). */
  suffix?: string;
  /** How many non-terminal records to follow, 10 by default. */
  maxHops?: number;
}

/**
 * Finds the resolvers of a URN through NAPTR records (RFC 3404):
 * the First Well Known Rule gives `<nid>.<suffix>`; records are taken by
 * order then preference (RFC 3403 §4.1); an empty flag means look again
 * at the new domain, `u` gives a URI, `s` a SRV name, `a` a host.
 *
 * @example
 * ```ts
 * import type { Resolver } from 'node:dns/promises';
 * // A stand-in for the DNS: one NAPTR record for example.urn.arpa (RFC 3404 §3).
 * const dns = { resolveNaptr: async () => [{ order: 100, preference: 10, flags: 'u', service: 'http+I2L', regexp: '!^urn:example:(.*)$!http://r.example/\\1!', replacement: '' }] };
 * await discoverByNaptr('urn:example:a', { dns: dns as unknown as Resolver, service: 'I2L' })
 * // [{ kind: 'uri', uri: 'http://r.example/a', service: 'http+I2L' }]
 * ```
 */
export async function discoverByNaptr(urn: string, opts: NaptrOptions): Promise<NaptrTarget[]> {
  const colon = urn.indexOf(':', 4);
  if (colon < 0) return [];
  // RFC 3404, First Well Known Rule: the NID, lower case, then the zone.
  let key = `${urn.slice(4, colon).toLowerCase()}.${opts.suffix ?? 'urn.arpa'}`;
  const maxHops = opts.maxHops ?? 10;
  for (let hop = 0; hop < maxHops; hop++) {
    const records = (await opts.dns.resolveNaptr(key)) as NaptrRecord[];
    records.sort((a, b) => a.order - b.order || a.preference - b.preference);
    const targets: NaptrTarget[] = [];
    let next: string | undefined;
    let matchedOrder: number | undefined;
    for (const r of records) {
      // RFC 3403 §4.1: once a record of some order matched, records of a
      // higher order are not considered.
      if (matchedOrder !== undefined && r.order !== matchedOrder) break;
      const flags = r.flags.toLowerCase();
      // RFC 3404, Flags: an unknown flag makes the client skip the record.
      if (flags !== '' && flags !== 'u' && flags !== 's' && flags !== 'a') continue;
      const rewritten = r.regexp !== '' ? applySubstitution(r.regexp, urn) : r.replacement;
      if (rewritten === undefined || rewritten === '' || rewritten === '.') continue;
      if (flags === '') {
        next ??= rewritten.replace(/\.$/, '');
        matchedOrder = r.order;
        continue;
      }
      const protocol = offers(r.service, opts.service);
      if (!protocol) continue;
      matchedOrder = r.order;
      if (flags === 'u') targets.push({ kind: 'uri', uri: rewritten, service: r.service });
      else if (flags === 'a') targets.push({ kind: 'host', host: rewritten.replace(/\.$/, ''), port: protocol === 'https' ? 443 : 80, protocol, service: r.service });
      else {
        // RFC 2782: SRV targets by priority, then weight (heavier first here;
        // no random choice, so the order of attempts is reproducible).
        const srv = await opts.dns.resolveSrv(rewritten.replace(/\.$/, ''));
        srv.sort((a, b) => a.priority - b.priority || b.weight - a.weight);
        for (const s of srv) targets.push({ kind: 'host', host: s.name.replace(/\.$/, ''), port: s.port, protocol, service: r.service });
      }
    }
    if (targets.length > 0) return targets;
    if (next === undefined) return [];
    key = next;
  }
  return [];
}
