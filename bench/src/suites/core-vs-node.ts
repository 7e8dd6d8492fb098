/**
 * urikit against Node's own `URL` class (ada, in C++), per operation and
 * per corpus (web = kasztp, node_files, isaacs): parse, validate, parse +
 * serialize, normalize, equivalent, resolve of a `../name?q` reference and
 * of the RFC 3986 §5.4 set. Each row times both sides on the same inputs
 * (those either side rejects are left out) in interleaved passes in this
 * one process (see ../vs-node.ts).
 */
import { cpus } from 'node:os';
import { equivalent, isValid, normalize, parse, resolve, serialize } from 'urikit';
import type { Suite } from '../run.js';
import { corpora, evenly, vsNode, type VsNodeRow } from '../vs-node.js';
import { REFS } from './core.js';

/**
 * The second member of an equivalent pair: `s` with its scheme and host in
 * upper case (RFC 3986 §6.2.2.1: both are case-insensitive), or with only
 * its scheme in upper case where Node's `URL` keeps the host's case (an
 * opaque host of a non-special scheme), so both sides answer "equivalent".
 */
function upperCased(s: string): string {
  const colon = s.indexOf(':');
  const scheme = s.slice(0, colon).toUpperCase();
  let rest = s.slice(colon);
  if (rest.startsWith('://')) {
    let end = 3;
    while (end < rest.length && !'/?#'.includes(rest[end]!)) end++;
    const upper = '://' + rest.slice(3, end).toUpperCase() + rest.slice(end);
    if (new URL(scheme + upper).href === new URL(s).href) rest = upper;
  }
  return scheme + rest;
}

export const suite: Suite = {
  name: 'core-vs-node',
  // One section per Node major version: npm run bench under Node 24 and under Node 22 fill both.
  heading: `core-vs-node, Node ${process.versions.node.split('.')[0]}`,
  run(ctx) {
    const rows: VsNodeRow[] = [];
    const perCorpus = corpora(ctx.corpus).map(([name, list]) => [name, evenly(list, ctx.quick ? 500 : 2000, (s) => isValid(s, 'uri') && URL.canParse(s))] as const);
    const add = (op: string, make: (urls: readonly string[]) => Omit<VsNodeRow, 'op' | 'corpus'>): void => {
      for (const [name, urls] of perCorpus) rows.push({ op, corpus: name, ...make(urls) });
    };
    add('parse', (urls) => ({ n: urls.length, urikit: () => { for (const s of urls) parse(s, 'uri'); }, node: () => { for (const s of urls) new URL(s); } }));
    add('validate (isValid vs URL.canParse)', (urls) => ({ n: urls.length, urikit: () => { for (const s of urls) isValid(s, 'uri'); }, node: () => { for (const s of urls) URL.canParse(s); } }));
    add('normalize (scheme level vs new URL().href)', (urls) => ({ n: urls.length, urikit: () => { for (const s of urls) normalize(s); }, node: () => { for (const s of urls) void new URL(s).href; } }));
    add('parse + serialize (vs new URL().href)', (urls) => ({ n: urls.length, urikit: () => { for (const s of urls) serialize(parse(s, 'uri')); }, node: () => { for (const s of urls) void new URL(s).href; } }));
    add('equivalent (vs comparing two hrefs)', (urls) => {
      const others = urls.map(upperCased);
      return {
        n: urls.length,
        urikit: () => { for (let i = 0; i < urls.length; i++) equivalent(urls[i]!, others[i]!); },
        node: () => { for (let i = 0; i < urls.length; i++) void (new URL(urls[i]!).href === new URL(others[i]!).href); },
      };
    });
    // Node's URL cannot resolve against a base with an opaque path (node:url): such pairs are left out.
    add('resolve ../name?q', (urls) => {
      const bases = urls.filter((b) => URL.canParse('../name?q', b));
      return { n: bases.length, urikit: () => { for (const s of bases) resolve(s, '../name?q'); }, node: () => { for (const s of bases) void new URL('../name?q', s).href; } };
    });
    add('resolve, RFC 3986 §5.4 set', (urls) => {
      const set = urls.map((b, i) => [b, REFS[i % REFS.length]!] as const).filter(([b, r]) => URL.canParse(r, b));
      return { n: set.length, urikit: () => { for (const [b, r] of set) resolve(b, r); }, node: () => { for (const [b, r] of set) void new URL(r, b).href; } };
    });
    vsNode(ctx, `urikit vs Node's URL (ada ${process.versions.ada ?? '?'}), Node ${process.version}, ${cpus()[0]?.model ?? '?'} × ${cpus().length} cores, ${new Date().toISOString().slice(0, 10)}: ns per call, same process, interleaved passes, medians; inputs either side rejects left out`, rows);
  },
};
