/**
 * `urikit extract --html` on documents in other encodings than UTF-8, run
 * through the real binary: the HTML Standard's encoding sniffing for a
 * file (byte order mark, --charset, the prescan's <meta>, UTF-8
 * recognised, windows-1252), each link's query encoded in the page's
 * encoding, and a clear error for a --charset that is no label.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireBuilt, run } from './run.js';

const dir = mkdtempSync(join(tmpdir(), 'urikit-extract-html-'));
beforeAll(() => requireBuilt());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A file of `bytes` in the scratch directory; its path. */
function file(name: string, bytes: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}
const latin1 = (s: string): Buffer => Buffer.from(s, 'latin1');
const utf16le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const utf16be = (s: string): Buffer => Buffer.from(utf16le(s)).swap16();

describe('urikit extract --html: the document\'s encoding', () => {
  it.each<[string, Buffer, string[], string]>([
    // The path is an IRI (UTF-8, RFC 3987 §3.1); the query is encoded in the page's encoding (HTML "encoding-parse a URL").
    ['a windows-1252 file (no declaration, no UTF-8): é is the byte E9', latin1('<a href="caf\u00e9.html?q=caf\u00e9">x</a>'), [], 'http://example.com/caf\u00e9.html?q=caf%E9\n'],
    ['a UTF-16LE file with its byte order mark: the query in UTF-8', utf16le('<a href="caf\u00e9.html?q=caf\u00e9">x</a>'), [], 'http://example.com/caf\u00e9.html?q=caf\u00e9\n'],
    ['a UTF-16BE file with its byte order mark', utf16be('<a href="\u20ac?q=\u20ac">x</a>'), [], 'http://example.com/\u20ac?q=\u20ac\n'],
    ['a <meta charset> file: koi8-r C1 is а', latin1('<meta charset="koi8-r"><a href="\u00c1?q=\u00c1">x</a>'), [], 'http://example.com/\u0430?q=%C1\n'],
    ['a <meta http-equiv=content-type> file', latin1('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=ISO-8859-2"><a href="\u00a1?q=\u00a1">x</a>'), [], 'http://example.com/\u0104?q=%A1\n'],
    ['a UTF-8 file without a declaration is recognised', Buffer.from('<a href="caf\u00e9?q=caf\u00e9">x</a>', 'utf8'), [], 'http://example.com/caf\u00e9?q=caf\u00e9\n'],
    ['--charset overrides the <meta>', latin1('<meta charset="koi8-r"><a href="\u00c1?q=\u00c1">x</a>'), ['--charset', 'latin1'], 'http://example.com/\u00c1?q=%C1\n'],
    ['--charset does not override a byte order mark', utf16le('<a href="\u00e9">x</a>'), ['--charset', 'koi8-r'], 'http://example.com/\u00e9\n'],
  ])('%s', async (_, bytes, extra, stdout) => {
    const path = file(`doc-${Math.random().toString(36).slice(2)}.html`, bytes);
    const r = await run(['extract', '--html', '--base', 'http://example.com/', ...extra, path]);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout, stderr: '' });
  });

  it('reads standard input the same way', async () => {
    const r = await run(['extract', '--html', '--base', 'http://example.com/'], latin1('<a href="?q=\u00e9">x</a>'));
    expect(r.stdout).toBe('http://example.com/?q=%E9\n');
  });

  it.each<[string, string[], string]>([
    ['an unknown --charset label', ['--html', '--charset', 'klingon'], '--charset "klingon" is no encoding label of the Encoding Standard'],
    ['--charset without --html', ['--charset', 'latin1'], '--charset is for --html documents'],
  ])('%s is a usage error (exit 2) that says why', async (_, args, message) => {
    const path = file('plain.html', latin1('<a href="x">x</a>'));
    const r = await run(['extract', ...args, path]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });
});
