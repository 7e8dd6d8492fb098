/**
 * Scheme codecs and profiles: fileUriToPath / pathToFileUri against Node's
 * own `url.fileURLToPath` / `url.pathToFileURL` (the one peer that has the
 * operation), codec parsing of the corpus's https URLs, and resolution
 * under the older profiles next to the default.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fileUriToPath, getScheme, parse, pathToFileUri, resolve, type SchemeCodec } from 'urikit';
import type { Suite } from '../run.js';

export const suite: Suite = {
  name: 'schemes',
  async run(ctx) {
    const n = ctx.quick ? 1000 : 5000;
    // file URLs: node_files.txt writes "file://" + a relative path (its first
    // segment reads as a host), so "/" is put back; isaacs' queries go (RFC 8089 §2 has none).
    const files = [...ctx.corpus.nodeFiles, ...ctx.corpus.isaacs.filter((u) => u.startsWith('file:'))]
      .map((u) => (u.startsWith('file:///') ? u : `file:///${u.slice(7)}`).split('?')[0]!)
      .filter((u) => { try { fileUriToPath(u); fileURLToPath(u); return true; } catch { return false; } })
      .slice(0, n);
    const paths = files.map((u) => fileUriToPath(u));
    await ctx.compare('fileUriToPath', [
      { name: 'urikit fileUriToPath', fn: () => { for (const u of files) fileUriToPath(u); } },
      { name: 'node:url fileURLToPath', fn: () => { for (const u of files) fileURLToPath(u); } },
    ], { perCall: files.length, note: 'file URIs/s' });
    await ctx.compare('pathToFileUri', [
      { name: 'urikit pathToFileUri', fn: () => { for (const p of paths) pathToFileUri(p); } },
      { name: 'node:url pathToFileURL().href', fn: () => { for (const p of paths) pathToFileURL(p).href; } },
    ], { perCall: paths.length, note: 'paths/s' });

    const https = ctx.corpus.kasztp.slice(0, n).map((u) => { try { return parse(u, 'uri'); } catch { return undefined; } })
      .filter((r): r is NonNullable<typeof r> => r !== undefined && (r.host ?? '') !== '');
    const codec = getScheme('https') as SchemeCodec<unknown>;
    await ctx.compare('https codec parse (already split)', [
      { name: 'urikit getScheme("https").parse', fn: () => { for (const r of https) codec.parse(r); } },
    ], { perCall: https.length, note: 'URLs/s, typed view from components; no peer has it' });

    const base = 'http://a/b/c/d;p?q';
    // valid under every profile (the 1993 character set has no "=", and no "/" in a search)
    const refs = ['g', './g', '../g', '../../../g', 'g?y', '?y', '#s', '/./g', 'g;x/../y', '//g'];
    await ctx.compare('resolve by profile', [
      { name: 'urikit rfc3986 (default)', fn: () => { for (const r of refs) resolve(base, r); } },
      { name: 'urikit draft-2003', fn: () => { for (const r of refs) resolve(base, r, { profile: 'draft-2003' }); } },
      { name: 'urikit draft-1997', fn: () => { for (const r of refs) resolve(base, r, { profile: 'draft-1997' }); } },
      { name: 'urikit url-1993', fn: () => { for (const r of refs) resolve(base, r, { profile: 'url-1993' }); } },
    ], { perCall: refs.length, note: 'references/s; the first row is the reference point, not a peer' });
  },
};
