/**
 * Hosts: parseHost on the hosts of the corpus and on IP address texts,
 * against ip-address and ipaddr.js (the npm packages that parse IP
 * addresses); classifyHost against ipaddr.js `range()`; domainToASCII
 * against whatwg-url's host parser (tr46, UTS #46). The corpus holds
 * almost no IP literals, so the IP workload is generated (deterministic):
 * IPv4 in dotted decimal, IPv6 in full, compressed and mixed forms.
 */
import { createRequire } from 'node:module';
import { classifyHost, domainToASCII, formatIPv4, formatIPv6, parseHost, tryParse } from 'urikit';
import type { Suite } from '../run.js';

const require = createRequire(import.meta.url);
const { Address4, Address6 } = require('ip-address') as {
  Address4: new (s: string) => unknown;
  Address6: new (s: string) => unknown;
};
const ipaddr = require('ipaddr.js') as {
  parse(s: string): { range(): string };
  IPv4: { parse(s: string): unknown };
  IPv6: { parse(s: string): unknown };
};
const whatwg = require('whatwg-url') as { URL: new (s: string) => { hostname: string } };

/** A deterministic generator (xorshift32), so every run measures the same addresses. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 0x100000000;
  };
}

function ipv4Texts(n: number): string[] {
  const r = rng(4);
  return Array.from({ length: n }, () => formatIPv4(Math.floor(r() * 0x100000000)));
}

function ipv6Texts(n: number): string[] {
  const r = rng(6);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    // Realistic addresses: a prefix, zero runs, a small interface id.
    const g = [0x2001, 0xdb8, Math.floor(r() * 0x10000), 0, 0, 0, 0, Math.floor(r() * 0x100)];
    if (i % 4 === 1) g.splice(2, 6, 0, 0, 0, Math.floor(r() * 0x10000), Math.floor(r() * 0x10000), 1);
    const canonical = formatIPv6(g);
    if (i % 4 === 2) out.push(g.map((x) => x.toString(16).padStart(4, '0')).join(':'));
    else if (i % 4 === 3) out.push(`::ffff:${formatIPv4(Math.floor(r() * 0x100000000))}`);
    else out.push(canonical);
  }
  return out;
}

export const suite: Suite = {
  name: 'host',
  async run(ctx) {
    const n = ctx.quick ? 2000 : 10_000;
    const v4 = ipv4Texts(n);
    const v6 = ipv6Texts(n);
    const v6Bracketed = v6.map((s) => `[${s}]`);
    const corpusHosts = ctx.corpus.sample.flatMap((s) => {
      const h = tryParse(s)?.host;
      return h !== undefined && h !== '' ? [h] : [];
    });

    await ctx.compare('parseHost IPv4', [
      { name: 'urikit parseHost', fn: () => { for (const s of v4) parseHost(s); } },
      { name: 'ip-address new Address4', fn: () => { for (const s of v4) new Address4(s); } },
      { name: 'ipaddr.js IPv4.parse', fn: () => { for (const s of v4) ipaddr.IPv4.parse(s); } },
    ], { perCall: v4.length, note: 'addresses/s' });

    await ctx.compare('parseHost IPv6', [
      { name: 'urikit parseHost', fn: () => { for (const s of v6Bracketed) parseHost(s); } },
      { name: 'ip-address new Address6', fn: () => { for (const s of v6) new Address6(s); } },
      { name: 'ipaddr.js IPv6.parse', fn: () => { for (const s of v6) ipaddr.IPv6.parse(s); } },
    ], { perCall: v6.length, note: 'addresses/s; full, compressed and IPv4-mapped forms' });

    const mixed = v4.map((s, i) => (i % 2 === 0 ? s : v6[i]!));
    await ctx.compare('classifyHost', [
      { name: 'urikit classifyHost', fn: () => { for (const s of mixed) classifyHost(s); } },
      { name: 'ipaddr.js parse().range()', fn: () => { for (const s of mixed) ipaddr.parse(s).range(); } },
    ], { perCall: mixed.length, note: 'IPv4 and IPv6 addresses/s' });

    await ctx.compare('parseHost corpus', [
      { name: 'urikit parseHost', fn: () => { for (const h of corpusHosts) parseHost(h); } },
    ], { perCall: corpusHosts.length, note: `the ${corpusHosts.length} hosts of the corpus sample, no peer has the operation` });

    // IDNA: the corpus names are ASCII; Unicode names are built from them.
    const labels = ['bücher', '例え', 'пример', 'παράδειγμα', 'münchen', '日本語', 'ñandú', '😀'];
    const idn = corpusHosts.slice(0, ctx.quick ? 500 : 2000).map((h, i) => `${labels[i % labels.length]}.${h.replace(/^www\./, '')}`);
    const ok = idn.filter((d) => { try { domainToASCII(d, { checkHyphens: false, useSTD3ASCIIRules: false }); return true; } catch { return false; } });
    await ctx.compare('domainToASCII', [
      { name: 'urikit domainToASCII', fn: () => { for (const d of ok) domainToASCII(d, { checkHyphens: false, useSTD3ASCIIRules: false }); } },
      { name: 'whatwg-url host (tr46)', fn: () => { for (const d of ok) void new whatwg.URL(`http://${d}/`).hostname; } },
      { name: "Node's URL host (ada)", fn: () => { for (const d of ok) void new URL(`http://${d}/`).hostname; } },
    ], { perCall: ok.length, note: 'Unicode domain names/s' });
  },
};
