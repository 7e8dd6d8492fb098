/**
 * The core operations against the peers on the corpus: parse, validate,
 * serialize, resolve, normalize, compare; and the hostile-input table
 * (time per byte from 1 KB to 1 MB must stay flat: linear time). The same
 * operations against Node's own `URL`, per corpus, are the core-vs-node suite.
 */
import { createRequire } from 'node:module';
import { equivalent, isValid, normalize, parse, resolve, serialize, type UriReference } from 'urikit';
import type { Contender, Suite } from '../run.js';
import { BASELINE_PREFIX } from '../baseline.js';

const require = createRequire(import.meta.url);
interface FastUri {
  parse(s: string): Record<string, unknown> & { error?: string };
  serialize(c: Record<string, unknown>): string;
  resolve(base: string, ref: string): string;
  normalize(s: string): string;
  equal(a: string, b: string): boolean;
}
const fastUri = require('fast-uri') as FastUri;
const uriJs = require('uri-js') as FastUri;
const whatwg = require('whatwg-url') as { URL: typeof URL };

// The relative references of RFC 3986 §5.4, resolved against corpus URLs.
export const REFS = ['g', './g', 'g/', '/g', '//g', '?y', 'g?y', '#s', 'g#s', 'g?y#s', ';x', 'g;x', '', '.', './', '..', '../', '../g', '../..', '../../g', '../../../g', '/./g', 'g/../h', 'g;x=1/./y'];

export const suite: Suite = {
  name: 'core',
  async run(ctx) {
    const sample = ctx.corpus.sample;
    const n = sample.length;
    // With --baseline, the same loop over the older build, right after urikit's.
    const before = ctx.baseline?.urikit;
    const againstBefore: Array<[string, () => unknown, () => unknown]> = [];
    const withBaseline = (contenders: Contender[], older: (() => unknown) | undefined): Contender[] => {
      if (older === undefined) return contenders;
      againstBefore.push([contenders[0]!.name, contenders[0]!.fn, older]);
      return [contenders[0]!, { name: BASELINE_PREFIX + contenders[0]!.name, fn: older }, ...contenders.slice(1)];
    };
    // parse: urikit parses and validates in one pass (RFC 3986 grammar).
    await ctx.compare('parse', withBaseline([
      { name: 'urikit parse', fn: () => { for (const s of sample) tryParseQuiet(s); } },
      { name: 'fast-uri parse', fn: () => { for (const s of sample) fastUri.parse(s); } },
      { name: 'uri-js parse', fn: () => { for (const s of sample) uriJs.parse(s); } },
      { name: 'whatwg-url new URL', fn: () => { for (const s of sample) { try { new whatwg.URL(s); } catch { /* invalid */ } } } },
      { name: "Node's new URL", fn: () => { for (const s of sample) { try { new URL(s); } catch { /* invalid */ } } } },
    ], before && (() => { for (const s of sample) tryParseQuiet(s, 'uri-reference', before.parse); })), { perCall: n, note: 'parse + validate, URLs/s' });

    await ctx.compare('validate', withBaseline([
      { name: 'urikit isValid', fn: () => { for (const s of sample) isValid(s, 'uri'); } },
      { name: 'fast-uri parse (.error)', fn: () => { for (const s of sample) void fastUri.parse(s).error; } },
      { name: 'whatwg-url URL.canParse', fn: () => { for (const s of sample) (whatwg.URL as unknown as { canParse(s: string): boolean }).canParse(s); } },
      { name: "Node's URL.canParse", fn: () => { for (const s of sample) URL.canParse(s); } },
    ], before && (() => { for (const s of sample) before.isValid(s, 'uri'); })), { perCall: n, note: 'URLs/s' });

    const ours = sample.map((s) => tryParseQuiet(s)).filter((r): r is UriReference => r !== undefined);
    const theirs = sample.map((s) => fastUri.parse(s));
    const theirsJs = sample.map((s) => uriJs.parse(s));
    const nodeUrls = sample.flatMap((s) => { try { return [new URL(s)]; } catch { return []; } });
    await ctx.compare('serialize', withBaseline([
      { name: 'urikit serialize', fn: () => { for (const r of ours) serialize(r); } },
      { name: 'fast-uri serialize', fn: () => { for (const r of theirs) fastUri.serialize(r); } },
      { name: 'uri-js serialize', fn: () => { for (const r of theirsJs) uriJs.serialize(r); } },
      { name: "Node's URL href", fn: () => { for (const u of nodeUrls) void u.href; } },
    ], before && (() => { for (const r of ours) before.serialize(r); })), { perCall: n, note: 'components -> string, per URL' });

    const bases = sample.filter((s) => isValid(s, 'uri')).slice(0, 2000);
    const pairs: Array<[string, string]> = bases.map((b, i) => [b, REFS[i % REFS.length]!]);
    await ctx.compare('resolve', withBaseline([
      { name: 'urikit resolve', fn: () => { for (const [b, r] of pairs) resolve(b, r); } },
      { name: 'fast-uri resolve', fn: () => { for (const [b, r] of pairs) fastUri.resolve(b, r); } },
      { name: 'uri-js resolve', fn: () => { for (const [b, r] of pairs) uriJs.resolve(b, r); } },
      { name: 'whatwg-url new URL(ref, base)', fn: () => { for (const [b, r] of pairs) { try { void new whatwg.URL(r, b).href; } catch { /* invalid */ } } } },
      { name: "Node's new URL(ref, base)", fn: () => { for (const [b, r] of pairs) { try { void new URL(r, b).href; } catch { /* invalid */ } } } },
    ], before && (() => { for (const [b, r] of pairs) before.resolve(b, r); })), { perCall: pairs.length, note: 'pairs/s' });

    const valid = sample.filter((s) => isValid(s, 'iri-reference'));
    await ctx.compare('normalize', withBaseline([
      { name: 'urikit normalize', fn: () => { for (const s of valid) normalize(s); } },
      { name: 'fast-uri normalize', fn: () => { for (const s of valid) fastUri.normalize(s); } },
      { name: 'uri-js normalize', fn: () => { for (const s of valid) uriJs.normalize(s); } },
      { name: "Node's new URL().href", fn: () => { for (const s of valid) { try { void new URL(s).href; } catch { /* invalid */ } } } },
    ], before && (() => { for (const s of valid) before.normalize(s); })), { perCall: valid.length, note: 'URLs/s' });

    const others = valid.map((s) => s.toUpperCase().replace(/^([^:]*):/, (m) => m.toLowerCase()));
    await ctx.compare('equivalent', withBaseline([
      { name: 'urikit equivalent', fn: () => { for (let i = 0; i < valid.length; i++) equivalent(valid[i]!, others[i]!); } },
      { name: 'fast-uri equal', fn: () => { for (let i = 0; i < valid.length; i++) fastUri.equal(valid[i]!, others[i]!); } },
      { name: 'uri-js equal', fn: () => { for (let i = 0; i < valid.length; i++) uriJs.equal(valid[i]!, others[i]!); } },
    ], before && (() => { for (let i = 0; i < valid.length; i++) before.equivalent(valid[i]!, others[i]!); })), { perCall: valid.length, note: 'pairs/s' });

    if (againstBefore.length > 0) {
      // The same loops again, this build and the baseline in turn, CPU time:
      // steadier than the table above when the machine is shared.
      const rounds = 41;
      ctx.table(`against the baseline: CPU time of one pass, the two builds in turn (${ctx.quick ? 7 : rounds} rounds, medians)`, ['operation', 'this build µs', 'baseline µs', 'baseline ÷ this (above 1: faster now)'],
        againstBefore.map(([name, now, then]) => {
          const t = ctx.paired(now, then, rounds);
          return [name, String(t.a), String(t.b), (t.b / t.a).toFixed(2)];
        }));
    }

    // Hostile input: time per byte from 1 KB to 1 MB (flat = linear time).
    const patterns: Array<[string, (size: number) => string]> = [
      ['%41%41… (valid path)', (k) => '%41'.repeat(Math.floor(k / 3))],
      ['%%%… (error at 0)', (k) => '%'.repeat(k)],
      ['a::::… as a URI', (k) => 'a' + ':'.repeat(k - 1)],
      ['aaaa…: (long scheme)', (k) => 'a'.repeat(k - 1) + ':'],
      ['//[:::…] (IPv6 error)', (k) => '//[' + ':'.repeat(k - 4) + ']'],
      ['//[[[[… (unclosed)', (k) => '//' + '['.repeat(k - 2)],
      ['//u:u:…@h (userinfo)', (k) => '//' + 'u:'.repeat(Math.floor((k - 4) / 2)) + '@h'],
      ['////… (path)', (k) => '/'.repeat(k)],
      ['./././… (dots)', (k) => './'.repeat(k / 2)],
      ['?????… (query)', (k) => '?'.repeat(k)],
    ];
    const sizes = [1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20];
    const header = ['input (isValid, then parse)', ...sizes.map((s) => (s >= 1 << 20 ? `${s >> 20} MB` : `${s >> 10} KB`))];
    const rows: string[][] = [];
    for (const [name, make] of patterns) {
      const inputs = sizes.map(make);
      const kind = name.includes('as a URI') || name.includes('scheme') ? 'uri' : 'uri-reference';
      rows.push([`${name} isValid ns/byte`, ...inputs.map((s) => ctx.nsPerCall(() => isValid(s, kind), 40) / s.length).map((x) => x.toFixed(2))]);
      rows.push([`${name} parse ns/byte`, ...inputs.map((s) => ctx.nsPerCall(() => tryParseQuiet(s, kind), 40) / s.length).map((x) => x.toFixed(2))]);
    }
    ctx.table('hostile input: nanoseconds per byte (flat from 1 KB to 1 MB = linear time)', header, rows);
  },
};

function tryParseQuiet(s: string, kind: 'uri' | 'uri-reference' = 'uri-reference', parser: typeof parse = parse): UriReference | undefined {
  try {
    return parser(s, kind);
  } catch {
    return undefined;
  }
}
