/**
 * Finding the resolvers of a URN, by three methods tried in a
 * configurable order: a configuration mapping NIDs or prefixes to
 * resolver base URLs; the 1995 rule for `urn:dns:<fqdn>:<ElementID>`
 * (1995 draft §2.2.1, §3.2: the resolver at that host, port 4500, all its
 * addresses equivalent); and DNS NAPTR records (RFC 3404).
 */
import { DEFAULT_PORT } from '../defaults/index.js';
import { lookup } from 'node:dns/promises';
import { Resolver } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { discoverByNaptr } from './naptr.js';

/**
 * A configuration of resolvers: keys are NIDs (`isbn`) or URN prefixes
 * (`urn:nbn:de:`), values are resolver base URLs or templates.
 *
 * @example
 * ```ts
 * const config: ResolverConfig = { resolvers: { isbn: ['http://127.0.0.1:4500'], 'urn:nbn:de:': ['https://nbn-resolving.org/{urn}'] } };
 * // A key is a NID, or a URN prefix (the longest matching first); {urn} is a template.
 * (await discoverySteps('urn:NBN:de:101-2020071401', 'I2L', { order: ['config'], config })[0]!.targets()).map((t) => t.url);
 * // ['https://nbn-resolving.org/urn:NBN:de:101-2020071401']
 * (await discoverySteps('urn:isbn:0451450523', 'I2L', { order: ['config'], config })[0]!.targets()).map((t) => t.url)
 * // ['http://127.0.0.1:4500/uri-res/I2L?urn:isbn:0451450523']
 * ```
 */
export interface ResolverConfig {
  resolvers: Record<string, string[]>;
}

/**
 * A discovery method; see {@link DiscoveryOptions}.
 *
 * @example
 * ```ts
 * const order: DiscoveryMethod[] = ['naptr', 'config'];
 * // The steps come in that order; each asks only when called.
 * discoverySteps('urn:isbn:0451450523', 'I2L', { order }).map((s) => s.method) // ['naptr', 'config']
 * await discoverySteps('urn:isbn:0451450523', 'I2L', { order })[1]!.targets() // [] (no configuration given)
 * ```
 */
export type DiscoveryMethod = 'config' | 'yaurn-1995' | 'naptr';

/**
 * How {@link resolveUrn} finds resolvers when none is given or all fail.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('resolvers.json', '{"resolvers": {"isbn": ["http://127.0.0.1:4500"]}}');
 * const d: DiscoveryOptions = { order: ['config', 'naptr'], config: './resolvers.json', dnsServers: ['127.0.0.1:5353'] };
 * // The configuration file is read when the config step is asked.
 * await discoverySteps('urn:isbn:0451450523', 'I2Ls', d)[0]!.targets()
 * // [{ url: 'http://127.0.0.1:4500/uri-res/I2Ls?urn:isbn:0451450523', source: 'config' }]
 * ```
 */
export interface DiscoveryOptions {
  /** The methods, in order; all three by default. */
  order?: DiscoveryMethod[];
  /** The configuration, or the path of a JSON file holding it. */
  config?: ResolverConfig | string;
  /** The port of a 1995 resolver, 4500 by default (1995 draft §3.2). */
  yaurnPort?: number;
  /** DNS servers (`host` or `host:port`) for the 1995 rule and NAPTR; the system's by default. */
  dnsServers?: string[];
  /** The zone of RFC 3404's First Well Known Rule, `urn.arpa` by default. */
  naptrSuffix?: string;
}

/**
 * One place to send a resolution request: the full request URL and, when
 * the URL uses an address, the `Host` header naming the resolver.
 *
 * @example
 * ```ts
 * // The 1995 rule: urn:dns:<host>:<ElementID> is GET /<ElementID> at port 4500 (here 4501) of each address of the host.
 * const [t] = await discoverySteps('urn:dns:127.0.0.1:aj17-mcc', 'I2L', { order: ['yaurn-1995'], yaurnPort: 4501 })[0]!.targets();
 * const target: ResolverTarget = t!;
 * target // { url: 'http://127.0.0.1:4501/aj17-mcc', host: '127.0.0.1:4501', source: 'yaurn-1995' }
 * ```
 */
export interface ResolverTarget {
  url: string;
  host?: string;
  /** How the target was found: `option`, `config`, `yaurn-1995` or `naptr`. */
  source: string;
}

/**
 * Reads a {@link ResolverConfig} from a JSON file.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('resolvers.json', '{"resolvers": {"isbn": ["http://127.0.0.1:4500"]}}');
 * loadResolverConfig('resolvers.json') // { resolvers: { isbn: ['http://127.0.0.1:4500'] } }
 * ```
 */
export function loadResolverConfig(path: string): ResolverConfig {
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const resolvers = (value as { resolvers?: unknown } | null)?.resolvers;
  if (resolvers === null || typeof resolvers !== 'object' || Array.isArray(resolvers)) {
    throw new Error(`${path}: a resolver configuration is {"resolvers": {"<nid or urn prefix>": ["<base URL>", ...]}}`);
  }
  const out: ResolverConfig = { resolvers: {} };
  for (const [key, list] of Object.entries(resolvers as Record<string, unknown>)) {
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw new Error(`${path}: "${key}" must map to a list of URLs`);
    out.resolvers[key] = list as string[];
  }
  return out;
}

// Characters that cannot stand in a query or path as they are: controls,
// space, '"', '#', '<', '>', '\', '^', '`', '{', '|', '}' and non-ASCII
// (2003 draft §2.4, RFC 2169 §2: the URN is carried in the query).
const MUST_ENCODE = new Uint8Array(128);
for (let c = 0; c <= 0x20; c++) MUST_ENCODE[c] = 1;
for (const ch of '"#<>\\^`{|}') MUST_ENCODE[ch.charCodeAt(0)] = 1;
MUST_ENCODE[0x7f] = 1;

/**
 * Percent-encodes what a URN cannot carry inside a request URL, keeping
 * everything else (and existing `%XX`) as written.
 *
 * @example
 * ```ts
 * encodeForRequest('urn:x:a b#c') // 'urn:x:a%20b%23c'
 * ```
 */
export function encodeForRequest(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (c < 128 && !MUST_ENCODE[c]) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `urn:<nid>:<nss>` split at the second colon. */
function splitUrn(urn: string): { nid: string; nss: string } {
  const colon = urn.indexOf(':', 4);
  return colon < 0 ? { nid: urn.slice(4), nss: '' } : { nid: urn.slice(4, colon), nss: urn.slice(colon + 1) };
}

/**
 * The request URL for `urn` at a resolver: a template's `{urn}`,
 * `{service}`, `{nid}`, `{nss}` and `{elementid}` filled in, or the
 * RFC 2169 form `<base>/uri-res/<service>?<urn>`, or for a URN with a
 * query (2012 draft §2.3 directives) the whole URN, `<base>/<urn>`.
 *
 * @example
 * ```ts
 * requestUrl('http://127.0.0.1:4500/', 'urn:isbn:0451450523', 'I2L') // 'http://127.0.0.1:4500/uri-res/I2L?urn:isbn:0451450523'
 * requestUrl('http://127.0.0.1:4500/', 'urn:isbn:0451450523?s=I2C', 'I2C') // 'http://127.0.0.1:4500/urn:isbn:0451450523?s=I2C'
 * ```
 */
export function requestUrl(base: string, urn: string, service: string): string {
  const { nid, nss } = splitUrn(urn);
  if (base.includes('{')) {
    // 1995 draft §3.3: the ElementID is what is left when the first three fields are stripped.
    const third = nss.indexOf(':');
    const elementId = third < 0 ? nss : nss.slice(third + 1);
    return base
      .replaceAll('{urn}', encodeForRequest(urn))
      .replaceAll('{service}', encodeURIComponent(service))
      .replaceAll('{nid}', encodeForRequest(nid))
      .replaceAll('{nss}', encodeForRequest(nss))
      .replaceAll('{elementid}', encodeForRequest(elementId));
  }
  const root = base.endsWith('/') ? base.slice(0, -1) : base;
  // 2012 draft §2.3: a URN with directives (or an RFC 8141 q-component) is sent whole, for the resolver to read them.
  if (urn.includes('?')) return `${root}/${encodeForRequest(urn)}`;
  // RFC 2169 §2.0: GET /uri-res/<service>?<uri>
  return `${root}/uri-res/${encodeURIComponent(service)}?${encodeForRequest(urn)}`;
}

/** `s` with its `urn:<nid>:` head in lower case: that part compares without case (RFC 8141 §3.1), the rest exactly. */
function lowerHead(s: string): string {
  if (s.slice(0, 4).toLowerCase() !== 'urn:') return s;
  const colon = s.indexOf(':', 4);
  return colon < 0 ? s.toLowerCase() : s.slice(0, colon + 1).toLowerCase() + s.slice(colon + 1);
}

/** The configured resolvers for `urn`: the longest matching prefix first, then the NID. */
function fromConfig(urn: string, service: string, config: ResolverConfig): ResolverTarget[] {
  const nid = splitUrn(urn).nid.toLowerCase();
  const subject = lowerHead(urn);
  const keyed = Object.entries(config.resolvers)
    .filter(([key]) => (key.slice(0, 4).toLowerCase() === 'urn:' ? subject.startsWith(lowerHead(key)) : key.toLowerCase() === nid))
    .sort((a, b) => b[0].length - a[0].length);
  return keyed.flatMap(([, bases]) => bases.map((b) => ({ url: requestUrl(b, urn, service), source: 'config' })));
}

/** A DNS resolver that asks `servers`, or the system's when none are given. */
function dnsResolver(servers: string[] | undefined): Resolver | undefined {
  if (!servers || servers.length === 0) return undefined;
  const r = new Resolver({ timeout: 2000, tries: 1 });
  r.setServers(servers);
  return r;
}

/** Every address of `host`, IPv4 first; through `dns` when given, else the system's resolver. */
async function addresses(host: string, dns: Resolver | undefined): Promise<string[]> {
  if (!dns) return (await lookup(host, { all: true, order: 'ipv4first' })).map((a) => a.address);
  const [v4, v6] = await Promise.allSettled([dns.resolve4(host), dns.resolve6(host)]);
  const out = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
  if (out.length === 0) throw new Error(`${host}: no address`);
  return out;
}

/** An address as it stands in a URL's authority (IPv6 in brackets, RFC 3986 §3.2.2). */
function hostPart(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

/**
 * The 1995 rule: `urn:dns:<fqdn>:<ElementID>` is resolved by `GET
 * /<ElementID>` at port 4500 of that host, and every address of the host
 * is an equivalent resolver (1995 draft §2.2.1, §3.2, §3.3).
 */
async function fromYaurn(urn: string, port: number, dns: Resolver | undefined): Promise<ResolverTarget[]> {
  const { nid, nss } = splitUrn(urn);
  if (nid.toLowerCase() !== 'dns') return [];
  const colon = nss.indexOf(':');
  if (colon <= 0) return [];
  const fqdn = nss.slice(0, colon);
  const elementId = nss.slice(colon + 1);
  const all = await addresses(fqdn, dns);
  return all.map((a) => ({ url: `http://${hostPart(a)}:${port}/${encodeForRequest(elementId)}`, host: `${fqdn}:${port}`, source: 'yaurn-1995' }));
}

/** Targets from NAPTR records (RFC 3404), host targets expanded to their addresses. */
async function fromNaptr(urn: string, service: string, opts: DiscoveryOptions, dns: Resolver | undefined): Promise<ResolverTarget[]> {
  const found = await discoverByNaptr(urn, { dns: dns ?? new Resolver(), service, suffix: opts.naptrSuffix ?? 'urn.arpa' });
  const out: ResolverTarget[] = [];
  for (const t of found) {
    if (t.kind === 'uri') {
      out.push({ url: t.uri, source: 'naptr' });
      continue;
    }
    const defaultPort = t.protocol === 'https' ? 443 : 80;
    const hostHeader = t.port === defaultPort ? t.host : `${t.host}:${t.port}`;
    if (t.protocol === 'https') {
      // TLS needs the name, not an address, to check the certificate.
      out.push({ url: requestUrl(`https://${hostHeader}`, urn, service), source: 'naptr' });
      continue;
    }
    for (const a of await addresses(t.host, dns)) {
      out.push({ url: requestUrl(`http://${hostPart(a)}:${t.port}`, urn, service), host: hostHeader, source: 'naptr' });
    }
  }
  return out;
}

/**
 * The discovery methods for `urn`, in the configured order, each a
 * function to call only when the previous ones gave no answer.
 *
 * @example
 * ```ts
 * const steps = discoverySteps('urn:isbn:0451450523', 'I2L', { order: ['config'], config: { resolvers: { isbn: ['http://127.0.0.1:4500'] } } });
 * steps.map((s) => s.method) // ['config']
 * await steps[0]!.targets() // [{ url: 'http://127.0.0.1:4500/uri-res/I2L?urn:isbn:0451450523', source: 'config' }]
 * ```
 */
export function discoverySteps(urn: string, service: string, opts: DiscoveryOptions): { method: DiscoveryMethod; targets: () => Promise<ResolverTarget[]> }[] {
  const order = opts.order ?? ['config', 'yaurn-1995', 'naptr'];
  let dns: Resolver | undefined | null = null;
  const getDns = () => (dns === null ? (dns = dnsResolver(opts.dnsServers)) : dns);
  return order.map((method) => ({
    method,
    targets: async () => {
      switch (method) {
        case 'config': {
          if (opts.config === undefined) return [];
          const config = typeof opts.config === 'string' ? loadResolverConfig(opts.config) : opts.config;
          return fromConfig(urn, service, config);
        }
        case 'yaurn-1995':
          return fromYaurn(urn, opts.yaurnPort ?? DEFAULT_PORT, getDns());
        case 'naptr':
          return fromNaptr(urn, service, opts, getDns());
      }
    },
  }));
}
