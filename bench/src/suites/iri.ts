/**
 * IRIs: iriToUri and uriToIri (RFC 3987 §3.1, §3.2). The corpus is ASCII,
 * so IRIs are built from it (deterministic): the host of one URL in three
 * gets a Unicode label, and every path gets a non-ASCII segment (Latin,
 * Cyrillic, Han, a non-BMP emoji). The peer is the WHATWG URL parser, which
 * maps an IRI to a URL in the same way (IDNA host, UTF-8 percent-encoding).
 */
import { createRequire } from 'node:module';
import { iriToUri, uriToIri, isValid } from 'urikit';
import type { Suite } from '../run.js';

const require = createRequire(import.meta.url);
const whatwg = require('whatwg-url') as { URL: new (s: string) => { href: string } };

const SEGMENTS = ['Dürst', 'пример', '例え', '😀', 'ñandú', 'παράδειγμα'];
const LABELS = ['bücher', '例え', 'пример'];

function iris(urls: string[], n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n && i < urls.length * 2; i++) {
    const u = urls[i % urls.length]!;
    if (!u.startsWith('https://') && !u.startsWith('http://')) continue;
    const slash = u.indexOf('/', u.indexOf('//') + 2);
    const authority = slash < 0 ? u : u.slice(0, slash);
    const rest = slash < 0 ? '/' : u.slice(slash);
    const host = i % 3 === 0 ? authority.replace('//', `//${LABELS[i % LABELS.length]}.`) : authority;
    const iri = `${host}/${SEGMENTS[i % SEGMENTS.length]}${rest}`;
    if (isValid(iri, 'iri')) out.push(iri);
  }
  return out;
}

export const suite: Suite = {
  name: 'iri',
  async run(ctx) {
    const input = iris(ctx.corpus.kasztp, ctx.quick ? 1000 : 5000);
    const uris = input.map((s) => iriToUri(s, { idna: { checkHyphens: false, useSTD3ASCIIRules: false, verifyDnsLength: false } }));
    await ctx.compare('iriToUri', [
      { name: 'urikit iriToUri', fn: () => { for (const s of input) iriToUri(s); } },
      { name: 'whatwg-url new URL().href', fn: () => { for (const s of input) { try { void new whatwg.URL(s).href; } catch { /* refused */ } } } },
      { name: "Node's new URL().href", fn: () => { for (const s of input) { try { void new URL(s).href; } catch { /* refused */ } } } },
    ], { perCall: input.length, note: 'IRIs/s (WHATWG URL also parses and normalizes)' });
    await ctx.compare('uriToIri', [
      { name: 'urikit uriToIri', fn: () => { for (const s of uris) uriToIri(s); } },
    ], { perCall: uris.length, note: 'URIs/s, no peer has the RFC 3987 §3.2 conversion' });
    const ascii = ctx.corpus.sample;
    await ctx.compare('iriToUri ASCII', [
      { name: 'urikit iriToUri', fn: () => { for (const s of ascii) { try { iriToUri(s); } catch { /* not an IRI */ } } } },
    ], { perCall: ascii.length, note: 'the corpus sample as is: the ASCII fast path' });
  },
};
