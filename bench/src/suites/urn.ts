/**
 * URNs: parseUrn and urnEquivalent against the npm package urn-lib (an
 * RFC 2141 parser/validator), in the same process. The corpus holds URLs,
 * not URNs, so the workload is built from it: each corpus URL becomes the
 * NSS of a `urn:example:` URN through identifierToNss (2012 draft §2.2),
 * mixed with names of the shipped namespaces (isbn, uuid, ietf, nbn).
 */
import { createRequire } from 'node:module';
import { identifierToNss, normalizeUrn, parseUrn, urnEquivalent } from 'urikit';
import type { Suite } from '../run.js';

const require = createRequire(import.meta.url);
type Parsed = { protocol?: string | null; nid?: string | null; nss?: string | null };
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
