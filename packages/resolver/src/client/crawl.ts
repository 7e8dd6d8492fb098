/**
 * `crawl`: a walk of "the web of URN resolvers" (1995 draft §3.5.3) from
 * one resolver. Its `urn+c` names the authorities it holds; each
 * authority's `urn+c` names the children it authorized, with the base URL
 * of the resolver that holds a delegated one; `urn+p` names its parents
 * (§3.5.4). The walk is bounded (resolvers, authorities, depth, time and
 * bytes of each answer), connects only to public addresses unless allowed
 * (the link checker's guard), shows a cycle without following it, and
 * reports a resolver that fails (unreachable, slow, garbage, too large, a
 * redirect loop) with the reason, going on with the rest.
 */
import { PUBLIC_ONLY } from '../links/guard.js';
import { parseUrc0 } from '../formats/urc0.js';
import { httpGet, type HttpAnswer } from './http.js';
import { mediaType } from './answer.js';

/**
 * The bounds of a crawl.
 *
 * @example
 * ```ts
 * const o: CrawlOptions = { maxResolvers: 10, maxDepth: 4, timeoutMs: 2000, allowPrivate: true };
 * o.maxDepth; // 4
 * ```
 */
export interface CrawlOptions {
  /** The most resolvers asked (distinct base URLs; default 50). */
  maxResolvers?: number;
  /** The most authorities visited (default 1000). */
  maxAuthorities?: number;
  /** The deepest level below the start resolver (default 8). */
  maxDepth?: number;
  /** Milliseconds for each request (default 10000). */
  timeoutMs?: number;
  /** The largest answer read, in bytes (default 1 MiB). */
  maxBytes?: number;
  /** Redirects followed for one request (default 5). */
  maxRedirects?: number;
  /** Connect to loopback, private and link-local addresses too (default: public only). */
  allowPrivate?: boolean;
}

/**
 * One authority reached (or the start resolver itself, `authority` ''),
 * with what its resolver answered.
 *
 * @example
 * ```ts
 * const n: CrawlNode = { resolver: 'http://127.0.0.1:4500', authority: 'urn:example:a', depth: 1, children: [], repeat: 'cycle' };
 * n.repeat; // 'cycle' (an ancestor of itself: shown, not followed)
 * ```
 */
export interface CrawlNode {
  /** The base URL of the resolver that holds it. */
  resolver: string;
  /** The authority (canonical as its parent wrote it); '' for the resolver itself. */
  authority: string;
  depth: number;
  /** Its children (urn+c), in the order given. */
  children: CrawlNode[];
  /** Its parents (urn+p), each with the resolver that holds it when another does. */
  parents?: Array<{ name: string; resolver?: string }>;
  /** Reached again: `cycle` when it is an ancestor of itself, `seen` when listed elsewhere already; not followed. */
  repeat?: 'cycle' | 'seen';
  /** Why it was not read (a bound reached). */
  skipped?: string;
  /** Why its resolver's answer could not be used. */
  error?: string;
}

/**
 * The tree a crawl reached and its counts.
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const r: CrawlResult = await crawl(server.url, { allowPrivate: true });
 * r.resolvers.length; // 1
 * // The demo answers a bare urn+c for its default authority, library.bigstate.edu (1995 draft §3.3):
 * r.root.children.map((c) => c.authority); // ['urn:dns:physics.bigstate.edu']
 * await server.close();
 * ```
 */
export interface CrawlResult {
  root: CrawlNode;
  /** Every resolver asked, in the order first asked. */
  resolvers: string[];
  /** Authorities read. */
  authorities: number;
  /** Nodes whose answer could not be used. */
  errors: number;
}

/** A list of names a urn+c or urn+p answered, with the resolver of each delegated one. */
interface NameList {
  names: string[];
  resolvers: Record<string, string>;
}

/** Most names read from one answer (the admin API stores at most 1000 children). */
const MAX_NAMES = 1000;
const ACCEPT = 'application/json, text/plain;q=0.8, text/urc-0;q=0.6';

/** A base URL without its trailing slashes: the key of a resolver. */
function baseOf(url: string): string {
  return url.replace(/\/+$/, '');
}

/** An authority name as §3.5.3 lists it: "urn:" and no white space or control character, within 1024 characters. */
function isAuthorityName(s: string): boolean {
  if (s.length < 5 || s.length > 1024 || s.slice(0, 4).toLowerCase() !== 'urn:') return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return true;
}

/** An http or https URL, or undefined. */
function resolverUrl(s: unknown): string | undefined {
  if (typeof s !== 'string' || s.length > 4096) return undefined;
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:' ? baseOf(s) : undefined;
  } catch {
    return undefined;
  }
}

/** Adds one name (and its resolver) to a list, or throws why it cannot. */
function addName(list: NameList, name: unknown, resolver: unknown): void {
  if (typeof name !== 'string' || !isAuthorityName(name)) throw new Error(`not an authority name: ${JSON.stringify(String(name).slice(0, 64))}`);
  if (list.names.length >= MAX_NAMES) throw new Error(`more than ${MAX_NAMES} names`);
  list.names.push(name);
  if (resolver === undefined) return;
  const r = resolverUrl(resolver);
  if (r === undefined) throw new Error(`not an http resolver URL for ${name}: ${JSON.stringify(String(resolver).slice(0, 64))}`);
  list.resolvers[name] = r;
}

/**
 * Reads a urn+c or urn+p answer in any format urikit gives it: JSON
 * `{names, resolvers}`; text/plain, a name a line (CRLF, §3.5.3), a
 * resolver URL after a space; text/urc-0, a part a name, its resolver
 * on a `Resolver:` line of the metainformation (§3.4.2). Throws on
 * anything else.
 *
 * @example
 * ```ts
 * readNameList('text/plain', Buffer.from('urn:example:b http://127.0.0.1:4501\r\n'));
 * // { names: ['urn:example:b'], resolvers: { 'urn:example:b': 'http://127.0.0.1:4501' } }
 * readNameList('text/plain', Buffer.from('<html>')); // throws Error
 * ```
 */
export function readNameList(type: string | undefined, body: Buffer): NameList {
  const list: NameList = { names: [], resolvers: {} };
  if (type === 'application/json') {
    const j = JSON.parse(body.toString('utf8')) as unknown;
    if (j === null || typeof j !== 'object' || !Array.isArray((j as { names?: unknown }).names)) throw new Error('JSON without a "names" list');
    const res = (j as { resolvers?: unknown }).resolvers;
    if (res !== undefined && (res === null || typeof res !== 'object' || Array.isArray(res))) throw new Error('"resolvers" is not an object');
    const held = (res ?? {}) as Record<string, unknown>;
    for (const n of (j as { names: unknown[] }).names) addName(list, n, typeof n === 'string' && Object.hasOwn(held, n) ? held[n] : undefined);
    return list;
  }
  if (type === 'text/plain') {
    for (const line of body.toString('latin1').split(/\r?\n/)) {
      if (line === '') continue;
      const [name, resolver, ...rest] = line.split(' ');
      if (rest.length > 0) throw new Error(`not a name and a resolver: ${JSON.stringify(line.slice(0, 64))}`);
      addName(list, name, resolver);
    }
    return list;
  }
  if (type === 'text/urc-0') {
    for (const part of parseUrc0(body)) {
      const line = (part.meta ?? '').split('\n').find((l) => l.startsWith('Resolver: '));
      addName(list, part.url, line?.slice(10));
    }
    return list;
  }
  throw new Error(`an answer in ${type ?? 'no media type'}, not a list of names`);
}

/** GETs a URL, following redirects up to `max` (a loop named as one). */
async function fetchFollowing(url: string, opts: Required<CrawlOptions>): Promise<HttpAnswer> {
  const seen = [url];
  let current = url;
  for (;;) {
    const answer = await httpGet(current, {
      headers: { accept: ACCEPT, 'user-agent': 'urikit-crawler' },
      timeout: opts.timeoutMs,
      maxBody: opts.maxBytes,
      allowAddresses: opts.allowPrivate ? 'all' : PUBLIC_ONLY,
    });
    if (![301, 302, 303, 307, 308].includes(answer.status)) return answer;
    const location = answer.headers['location'];
    if (location === undefined) throw new Error(`HTTP ${answer.status} without a Location`);
    const next = new URL(location, current).href;
    if (seen.includes(next)) throw new Error(`redirect loop: ${[...seen, next].join(' -> ')}`);
    if (seen.length > opts.maxRedirects) throw new Error(`more than ${opts.maxRedirects} redirects`);
    seen.push(next);
    current = next;
  }
}

/** Asks `resolver` for `urn+c` or `urn+p` of `authority` ('' for the resolver itself). */
async function askList(resolver: string, authority: string, which: 'c' | 'p', opts: Required<CrawlOptions>): Promise<NameList> {
  // 1995 draft §3.3: the ElementID alone; the whole URN for an authority (urikit's /<urn> form).
  const answer = await fetchFollowing(`${resolver}/${authority === '' ? '' : `${authority}:`}urn+${which}`, opts);
  if (answer.status !== 200) throw new Error(`urn+${which}: HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`);
  try {
    return readNameList(mediaType(answer.headers['content-type']), answer.body);
  } catch (e) {
    throw new Error(`urn+${which}: unusable answer: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The message of a failure, without the URL prefix the transport puts on it. */
function reason(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  const at = m.indexOf(': ');
  return /^https?:\/\//.test(m) && at > 0 ? m.slice(at + 2) : m;
}

/**
 * Walks urn+c (and urn+p) from the resolver at `start`: the authorities
 * it holds, their children, on to the resolvers a child is delegated to,
 * within the bounds of `options`. Never throws for what a resolver
 * answers: each failure is the `error` of its node.
 *
 * @example
 * ```ts
 * const server = await startServer({ port: 0, db: ':memory:', demo: true });
 * const r = await crawl(server.url, { allowPrivate: true, maxDepth: 2 });
 * r.errors; // 0
 * (await crawl(server.url)).root.error; // '127.0.0.1 is loopback, not an address allowed here' (public only by default)
 * await server.close();
 * ```
 */
export async function crawl(start: string, options: CrawlOptions = {}): Promise<CrawlResult> {
  const opts: Required<CrawlOptions> = {
    maxResolvers: options.maxResolvers ?? 50,
    maxAuthorities: options.maxAuthorities ?? 1000,
    maxDepth: options.maxDepth ?? 8,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBytes: options.maxBytes ?? 1 << 20,
    maxRedirects: options.maxRedirects ?? 5,
    allowPrivate: options.allowPrivate ?? false,
  };
  const resolvers: string[] = [];
  const visited = new Set<string>();
  let authorities = 0;
  let errors = 0;

  const visit = async (node: CrawlNode, path: ReadonlySet<string>): Promise<void> => {
    const key = `${node.resolver}\n${node.authority}`;
    if (path.has(key)) { node.repeat = 'cycle'; return; }
    if (visited.has(key)) { node.repeat = 'seen'; return; }
    if (!resolvers.includes(node.resolver)) {
      if (resolvers.length >= opts.maxResolvers) { node.skipped = `more than ${opts.maxResolvers} resolvers`; return; }
      resolvers.push(node.resolver);
    }
    if (node.authority !== '' && authorities >= opts.maxAuthorities) { node.skipped = `more than ${opts.maxAuthorities} authorities`; return; }
    visited.add(key);
    let children: NameList;
    try {
      children = await askList(node.resolver, node.authority, 'c', opts);
    } catch (e) {
      node.error = reason(e);
      errors++;
      return;
    }
    if (node.authority !== '') {
      authorities++;
      try {
        const parents = await askList(node.resolver, node.authority, 'p', opts);
        node.parents = parents.names.map((name) => (parents.resolvers[name] !== undefined ? { name, resolver: parents.resolvers[name]! } : { name }));
      } catch (e) {
        // A resolver that fails urn+p (required too, §3.5.4) is reported; its children are still walked.
        node.error = reason(e);
        errors++;
      }
    }
    const below = new Set(path).add(key);
    for (const name of children.names) {
      const child: CrawlNode = { resolver: children.resolvers[name] ?? node.resolver, authority: name, depth: node.depth + 1, children: [] };
      node.children.push(child);
      if (child.depth > opts.maxDepth) { child.skipped = `deeper than ${opts.maxDepth}`; continue; }
      await visit(child, below);
    }
  };

  const root: CrawlNode = { resolver: baseOf(start), authority: '', depth: 0, children: [] };
  if (resolverUrl(start) === undefined) {
    root.error = 'not an http or https URL';
    return { root, resolvers, authorities, errors: 1 };
  }
  await visit(root, new Set());
  return { root, resolvers, authorities, errors };
}

/**
 * The tree of a crawl as text: one line a node, indented by depth, its
 * resolver when another than its parent's, and what stopped it.
 *
 * @example
 * ```ts
 * const root: CrawlNode = { resolver: 'http://r.example', authority: '', depth: 0, children: [
 *   { resolver: 'http://s.example', authority: 'urn:example:a', depth: 1, children: [], error: 'HTTP 500' }] };
 * crawlText({ root, resolvers: ['http://r.example', 'http://s.example'], authorities: 0, errors: 1 });
 * // 'http://r.example\n  urn:example:a at http://s.example  [error: HTTP 500]\n2 resolvers, 0 authorities, 1 error\n'
 * ```
 */
export function crawlText(result: CrawlResult): string {
  const lines: string[] = [];
  const walk = (n: CrawlNode, parentResolver: string | undefined): void => {
    let line = `${'  '.repeat(n.depth)}${n.authority === '' ? n.resolver : n.authority}`;
    if (n.authority !== '' && n.resolver !== parentResolver) line += ` at ${n.resolver}`;
    if (n.parents !== undefined && n.parents.length > 0) line += `  (parents: ${n.parents.map((p) => p.name).join(', ')})`;
    if (n.repeat === 'cycle') line += '  [cycle: not followed]';
    if (n.repeat === 'seen') line += '  [listed above]';
    if (n.skipped !== undefined) line += `  [skipped: ${n.skipped}]`;
    if (n.error !== undefined) line += `  [error: ${n.error}]`;
    lines.push(line);
    for (const c of n.children) walk(c, n.resolver);
  };
  walk(result.root, undefined);
  const count = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  lines.push(`${count(result.resolvers.length, 'resolver', 'resolvers')}, ${count(result.authorities, 'authority', 'authorities')}, ${count(result.errors, 'error', 'errors')}`);
  return `${lines.join('\n')}\n`;
}
