/**
 * URNs: parseUrn and urnEquivalent against the npm package urn-lib (an
 * RFC 2141 parser/validator), in the same process. The corpus holds URLs,
 * not URNs, so the workload is built from it: each corpus URL becomes the
 * NSS of a `urn:example:` URN through identifierToNss (2012 draft §2.2),
 * mixed with names of the shipped namespaces (isbn, uuid, ietf, nbn).
 *
 * Then the core's `equivalent` and `normalize` on the synthetic URN corpus
 * of ../urn-corpus.ts (every shipped namespace and more, the 1995 draft's
 * shape, r-/q-/f-components, directives, percent-encoding, case variants)
 * against the peers that compare or normalize a `urn:` name: fast-uri and
 * uri-js (each has a `urn` scheme handler), urn-lib (parse ×2 and RFC 2141
 * §5's case rules) and Node's URL (scheme case only). With `--baseline`,
 * the older build beside this one.
 */
import { createRequire } from 'node:module';
import { equivalent, identifierToNss, isValidUrn, normalize, normalizeUrn, parseUrn, urnEquivalent } from 'urikit';
import type { Contender, Suite } from '../run.js';
import { BASELINE_PREFIX } from '../baseline.js';
import { urnCorpus } from '../urn-corpus.js';

const require = createRequire(import.meta.url);
type Parsed = { protocol?: string | null; nid?: string | null; nss?: string | null };
interface UriPeer { normalize(s: string): string; equal(a: string, b: string): boolean }
const fastUri = require('fast-uri') as UriPeer;
const uriJs = require('uri-js') as UriPeer;
const urnLib = require('urn-lib') as { RFC2141: { parse(s: string): Parsed | null; validate(p: Parsed): string[] | null } };

/** A deterministic URN workload of `n` names from the corpus. */
function workload(urls: string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    const k = i % 5;
    if (k === 0) out.push(`urn:example:${identifierToNss(urls[i % urls.length]!)}`);
    else if (k === 1) out.push(`URN:ISBN:978-0-${String(100000 + (i % 900000)).padStart(6, '0')}-${i % 10}-${i % 7}`);
    else if (k === 2) out.push(`urn:uuid:${(i * 2654435761 >>> 0).toString(16).padStart(8, '0')}-7dec-11d0-a765-00a0c91e6bf6`);
    else if (k === 3) out.push(`urn:ietf:rfc:${i}`);
    else out.push(`urn:nbn:de:bvb:19-${i}`);
  }
  return out;
}

/** urn-lib has no equivalence: the fairest stand-in is its parse of both plus RFC 2141 §5's case rules. */
function urnLibEquivalent(a: string, b: string): boolean {
  const p = urnLib.RFC2141.parse(a);
  const q = urnLib.RFC2141.parse(b);
  if (!p || !q || urnLib.RFC2141.validate(p) || urnLib.RFC2141.validate(q)) return false;
  const pct = (s: string): string => s.replace(/%[0-9a-f]{2}/gi, (h) => h.toUpperCase());
  return p.nid!.toLowerCase() === q.nid!.toLowerCase() && pct(p.nss!) === pct(q.nss!);
}

export const suite: Suite = {
  name: 'urn',
  async run(ctx) {
    const urns = workload(ctx.corpus.sample, ctx.quick ? 2000 : 10_000);
    const n = urns.length;
    await ctx.compare('parseUrn', [
      { name: 'urikit parseUrn', fn: () => { for (const s of urns) parseUrn(s); } },
      { name: 'urn-lib RFC2141.parse + validate', fn: () => { for (const s of urns) { const p = urnLib.RFC2141.parse(s); if (p) urnLib.RFC2141.validate(p); } } },
    ], { perCall: n, note: 'parse + validate, URNs/s' });

    // pairs that differ only in the case of "urn", the NID and %hh (2012 draft §5 steps 1-3)
    const variants = urns.map((s) => `URN:${s.slice(4, s.indexOf(':', 4)).toUpperCase()}${s.slice(s.indexOf(':', 4)).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())}`);
    await ctx.compare('urnEquivalent', [
      { name: 'urikit urnEquivalent', fn: () => { for (let i = 0; i < n; i++) urnEquivalent(urns[i]!, variants[i]!, { namespaces: false }); } },
      { name: 'urn-lib parse ×2 + case rules', fn: () => { for (let i = 0; i < n; i++) urnLibEquivalent(urns[i]!, variants[i]!); } },
    ], { perCall: n, note: 'pairs/s, generic rules only' });

    await ctx.compare('normalizeUrn', [
      { name: 'urikit normalizeUrn (namespaces on)', fn: () => { for (const s of urns) normalizeUrn(s); } },
    ], { perCall: n, note: 'URNs/s, no peer has it' });

    // The core's comparison ladder on URNs (RFC 8141 §3 at the scheme level), on the synthetic corpus.
    const corpus = urnCorpus(ctx.quick ? 2000 : 10_000);
    const a = corpus.urns;
    const b = corpus.variants;
    const m = a.length;
    const before = ctx.baseline?.urikit;
    const withBaseline = (contenders: Contender[], older: (() => unknown) | undefined): Contender[] =>
      older === undefined ? contenders : [contenders[0]!, { name: BASELINE_PREFIX + contenders[0]!.name, fn: older }, ...contenders.slice(1)];
    await ctx.compare('equivalent, URN corpus', withBaseline([
      { name: 'urikit equivalent', fn: () => { for (let i = 0; i < m; i++) equivalent(a[i]!, b[i]!); } },
      { name: 'fast-uri equal', fn: () => { for (let i = 0; i < m; i++) fastUri.equal(a[i]!, b[i]!); } },
      { name: 'uri-js equal', fn: () => { for (let i = 0; i < m; i++) uriJs.equal(a[i]!, b[i]!); } },
      { name: 'urn-lib parse ×2 + case rules', fn: () => { for (let i = 0; i < m; i++) urnLibEquivalent(a[i]!, b[i]!); } },
      { name: "Node's URL href ×2", fn: () => { for (let i = 0; i < m; i++) void (new URL(a[i]!).href === new URL(b[i]!).href); } },
    ], before && (() => { for (let i = 0; i < m; i++) before.equivalent(a[i]!, b[i]!); })), { perCall: m, note: 'pairs/s' });
    await ctx.compare('normalize, URN corpus', withBaseline([
      { name: 'urikit normalize', fn: () => { for (const s of a) normalize(s); } },
      { name: 'fast-uri normalize', fn: () => { for (const s of a) fastUri.normalize(s); } },
      { name: 'uri-js normalize', fn: () => { for (const s of a) uriJs.normalize(s); } },
      { name: "Node's new URL().href", fn: () => { for (const s of a) void new URL(s).href; } },
    ], before && (() => { for (const s of a) before.normalize(s); })), { perCall: m, note: 'URNs/s' });
    // urnEquivalent throws on what is no URN under RFC 8141 (the 2012 draft's "?s=" form): those pairs are left out.
    const pairs = a.flatMap((s, i) => (isValidUrn(s) && isValidUrn(b[i]!) ? [[s, b[i]!] as const] : []));
    await ctx.compare('urnEquivalent, URN corpus', withBaseline([
      { name: 'urikit urnEquivalent', fn: () => { for (const [x, y] of pairs) urnEquivalent(x, y); } },
      { name: 'urn-lib parse ×2 + case rules', fn: () => { for (const [x, y] of pairs) urnLibEquivalent(x, y); } },
    ], before && (() => { for (const [x, y] of pairs) before.urnEquivalent(x, y); })), { perCall: pairs.length, note: 'pairs/s, RFC 8141 URNs only' });

    // linear time: time per byte must stay flat as the input grows
    const rows: string[][] = [];
    for (const size of ctx.quick ? [1_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]) {
      const long = `urn:example:${'a%2C'.repeat(size / 4)}?+r?=${'k=v&'.repeat(size / 16)}z=1#f`;
      const ns = ctx.nsPerCall(() => parseUrn(long));
      rows.push([size.toLocaleString('en-US'), (ns / long.length).toFixed(2)]);
    }
    ctx.table('parseUrn time per byte (hostile sizes)', ['NSS bytes', 'ns/byte'], rows);
  },
};
