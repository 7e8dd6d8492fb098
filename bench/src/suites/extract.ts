/**
 * Finding URIs in plain text (2003 draft Appendix E): urikit's
 * extractUris against linkify-it on the same text, built from the URLs of
 * ../shared/corpus set in prose with the usual wrappers (quotes, <...>,
 * parentheses, Markdown links) and sentence punctuation.
 *
 * Reports MB/s (of UTF-16 text) at several sizes, to show the throughput is
 * flat (linear time), and checks coverage: every URI linkify-it finds that
 * is a valid URI reference must be found by urikit too.
 */
import { createRequire } from 'node:module';
import { extractUris, isValid } from 'urikit';
import type { Suite } from '../run.js';

const require = createRequire(import.meta.url);
type LinkifyMatch = { index: number; lastIndex: number; url: string; schema: string };
const LinkifyIt = require('linkify-it') as new (schemas?: object, opts?: object) => { match(text: string): LinkifyMatch[] | null };

const PROSE = [
  'Yes, Jim, I found it under',
  'The minutes of the meeting are archived; see',
  'Please read the installation notes carefully before you upgrade, especially',
  'Er sagte, die Datei liege unter',
  'Nous avons publié la nouvelle version à l’adresse',
  '> On Tuesday, Roy wrote: the draft is at',
  'For background (and the long history of the discussion), consult',
  'Mirrors are listed at',
];
const CLOSERS = ['.', ',', ';', ' and then some.', '!', '?', ':', '.\n\n', '\n'];

/** `size` UTF-16 units of prose with URLs from the corpus. */
export function buildText(urls: string[], size: number): string {
  const parts: string[] = [];
  let n = 0;
  for (let i = 0; n < size; i++) {
    const u = urls[(i * 7919) % urls.length]!;
    const p = PROSE[i % PROSE.length]!;
    let piece: string;
    switch (i % 6) {
      case 0: piece = `${p} ${u}${CLOSERS[i % CLOSERS.length]} `; break;
      case 1: piece = `${p} "${u}"${CLOSERS[i % CLOSERS.length]} `; break;
      case 2: piece = `${p} <${u}>${CLOSERS[i % CLOSERS.length]} `; break;
      case 3: piece = `${p} (${u})${CLOSERS[i % CLOSERS.length]} `; break;
      case 4: piece = `${p} [the page](${u})${CLOSERS[i % CLOSERS.length]} `; break;
      default: piece = `${p} nothing at all, only words and numbers like 3.14 and 10:30${CLOSERS[i % CLOSERS.length]} `;
    }
    parts.push(piece);
    n += piece.length;
  }
  return parts.join('').slice(0, size);
}

/** True if `s` is only the sentence punctuation 2003 draft App. E leaves out of a URI. */
function onlyPunctuation(s: string): boolean {
  for (const ch of s) if (!'.,;:!?'.includes(ch)) return false;
  return s.length > 0;
}

export const suite: Suite = {
  name: 'extract',
  async run(ctx) {
    const urls = ctx.corpus.kasztp.concat(ctx.corpus.isaacs);
    const linkify = new LinkifyIt();
    // linkify-it's own defaults also find www. links and e-mail addresses;
    // urikit does on request (abbreviated, emails), so both run with them.
    const opts = { abbreviated: true, emails: true } as const;

    const sizes = ctx.quick ? [64 * 1024, 1024 * 1024] : [64 * 1024, 1024 * 1024, 8 * 1024 * 1024];
    const rows: string[][] = [];
    for (const size of sizes) {
      const text = buildText(urls, size);
      const mb = (text.length * 2) / 1e6;
      const ours = ctx.nsPerCall(() => extractUris(text, opts), ctx.quick ? 100 : 400);
      const plain = ctx.nsPerCall(() => extractUris(text), ctx.quick ? 100 : 400);
      const theirs = ctx.nsPerCall(() => linkify.match(text), ctx.quick ? 100 : 400);
      const mbs = (ns: number): number => mb / (ns / 1e9);
      rows.push([
        `${Math.round(size / 1024)} Ki chars`,
        mbs(ours).toFixed(1), mbs(plain).toFixed(1), mbs(theirs).toFixed(1), `${(theirs / ours).toFixed(2)}×`,
      ]);
    }
    ctx.table('extract: MB/s of text (UTF-16 bytes), flat across sizes = linear time', [
      'text size', 'urikit extractUris (www., e-mail on)', 'urikit extractUris (defaults)', 'linkify-it match', 'urikit / linkify-it',
    ], rows);

    // Coverage: every URI linkify-it finds that is a valid URI reference,
    // urikit finds at the same offset; the readings may differ where 2003
    // draft App. E rules (trailing sentence punctuation left out, a quoted
    // or bracketed URI ending at its wrapper).
    const text = buildText(urls, 1024 * 1024);
    const ours = new Map(extractUris(text, opts).map((m) => [m.start, m.uri]));
    let theirs = 0, valid = 0, same = 0, punct = 0, differ = 0, missed = 0;
    const examples: string[] = [];
    for (const m of linkify.match(text) ?? []) {
      theirs++;
      if (!isValid(m.url, 'iri-reference')) continue;
      valid++;
      const u = ours.get(m.index);
      if (u === m.url) same++;
      else if (u !== undefined && m.url.startsWith(u) && onlyPunctuation(m.url.slice(u.length))) punct++;
      else if (u !== undefined) {
        differ++;
        if (examples.length < 4) examples.push(`${JSON.stringify(m.url)} / urikit ${JSON.stringify(u)}`);
      } else {
        missed++;
        if (examples.length < 8) examples.push(`missed ${JSON.stringify(text.slice(Math.max(0, m.index - 10), m.lastIndex + 10))}`);
      }
    }
    ctx.table('extract: coverage of linkify-it (1 Mi chars)', [
      'linkify-it matches', 'valid URI references', 'urikit: same URI', 'urikit: without trailing . , ; : ! ? (App. E)', 'urikit: other reading', 'not found by urikit', 'examples',
    ], [[String(theirs), String(valid), String(same), String(punct), String(differ), String(missed), examples.join('<br>') || '—']]);
  },
};
