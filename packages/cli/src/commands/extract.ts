/**
 * `urikit extract`: the URIs a careful reader would see in plain text
 * (Appendix E of the 1997 and 2003 drafts), or every link of an HTML
 * document resolved against its base.
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { isatty } from 'node:tty';
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractUriBatches } from 'urikit';
import { COMMON, EXIT_INVALID, EXIT_OK, UsageError, type Command } from '../command.js';
import { fdReader } from '../lines.js';
import { ByteSink } from '../out.js';
import { textChunks } from '../text-chunks.js';
import type { ExtractOptions } from 'urikit';

/** The bytes of a file, or of standard input for "-": an HTML document is decoded once its encoding is known. */
async function readBytes(source: string): Promise<Uint8Array> {
  if (source !== '-') return readFile(source);
  const parts: Buffer[] = [];
  for await (const c of process.stdin as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts);
}

/**
 * The `urikit extract` command: its options, help text and what it runs.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from '../command.js';
 * import { writeFileSync } from 'node:fs';
 * writeFileSync('mail.txt', 'Yes, Jim, I found it under <http://www.w3.org/Addressing/>.\n');
 * await extractCommand.run(parseCommandLine(extractCommand, ['mail.txt'])) // 0 (prints "http://www.w3.org/Addressing/")
 * ```
 */
export const extractCommand: Command = {
  name: 'extract',
  summary: 'find the URIs in text or mail (2003 draft App. E), or the links of an HTML document',
  usage: ['extract [options] [FILE...]   (standard input when no FILE or "-")'],
  details: 'Text: wrappers (<...>, <URL:...>, quotes, brackets) and trailing sentence punctuation are handled as\nAppendix E of the drafts says; the text is streamed, never held whole. HTML (--html): every href, src,\naction, cite, srcset... resolved against the document\'s base (2003 draft §5.1: the first <base href>,\nelse --base, else the file\'s own file: URI). The HTML is decoded as a browser decodes a file (HTML encoding\nsniffing): a byte order mark, else --charset, else a <meta charset> or <meta http-equiv=content-type> in the\nfirst 1024 bytes, else UTF-8 if the bytes are UTF-8 and not all ASCII, else windows-1252; a later <meta>\nchanges that guess. Queries are encoded in that encoding, as a browser requests them. Text is UTF-8.\nPrints one URI per line; with --json one object per URI:\ntext {source, uri, start, end, ...}, HTML {source, base, element, attribute, value, uri, offset} (error instead\nof uri for a link that cannot be resolved).',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'one JSON object per URI found: {uri, start, end, ...}, with "source" for a file' },
    html: { type: 'boolean', help: 'read the input as HTML and list its links' },
    base: { type: 'string', short: 'b', arg: 'URI', help: 'the URI of the document (HTML: the base when there is no <base href>)' },
    charset: { type: 'string', arg: 'NAME', help: 'with --html: the documents\' character encoding, an Encoding Standard label (utf-8, windows-1252, iso-8859-2, shift_jis...), over any <meta charset>; a byte order mark still wins' },
    scheme: { type: 'string', short: 's', multiple: true, arg: 'SCHEME', help: 'accept only URIs of this scheme, repeatable; "any" for every valid scheme (default: the schemes of prose, x- schemes and any "scheme://")' },
    abbreviated: { type: 'boolean', help: 'also find abbreviated URIs such as www.w3.org/Addressing/ (2003 draft App. F)' },
    emails: { type: 'boolean', help: 'also find bare e-mail addresses, as mailto: URIs' },
    'no-iri': { type: 'boolean', help: 'do not accept non-ASCII characters (IRIs)' },
  },
  examples: [
    'echo "Yes, Jim, I found it under <http://www.w3.org/Addressing/>." | urikit extract',
    'urikit extract --scheme https --scheme http mail.txt',
    'urikit extract --abbreviated notes.txt',
    'curl -s https://example.com/ | urikit extract --html --base https://example.com/ --json',
    'urikit extract --html --charset iso-8859-2 old-page.html',
  ],
  exitStatus: '0 done (whether or not URIs were found), 1 an HTML link that cannot be resolved, 2 usage error, 3 a file could not be read.',
  run: async (args) => {
    const sources = args.positionals.length > 0 ? args.positionals : ['-'];
    for (const f of sources) if (f !== '-' && !existsSync(f)) throw new UsageError(`cannot read ${f}: no such file`, 'extract');
    // isatty, not process.stdin.isTTY: making the stdin stream would set a pipe non-blocking, and it is read with blocking reads.
    if (sources.every((s) => s === '-') && isatty(0)) throw new UsageError('no input: give FILE arguments or pipe text on standard input', 'extract');
    const json = args.values.json === true;
    const opts: ExtractOptions = {};
    const schemes = args.values.scheme as string[] | undefined;
    if (schemes?.length) opts.schemes = schemes.includes('any') ? 'any' : schemes;
    if (args.values.abbreviated === true) opts.abbreviated = true;
    if (args.values.emails === true) opts.emails = true;
    if (args.values['no-iri'] === true) opts.iri = false;
    const base = args.values.base as string | undefined;
    const charset = args.values.charset as string | undefined;
    if (charset !== undefined && args.values.html !== true) throw new UsageError('--charset is for --html documents (text is read as UTF-8)', 'extract');
    const html = args.values.html === true ? await import('@urikit/html') : undefined;
    if (charset !== undefined && html?.encodingForLabel(charset) === undefined) {
      throw new UsageError(`--charset ${JSON.stringify(charset)} is no encoding label of the Encoding Standard (such as utf-8, windows-1252, iso-8859-2, shift_jis)`, 'extract');
    }
    let failed = 0;
    // The output is gathered in a buffer of a megabyte, not a write per URI:
    // tens of thousands of small writes cost more than finding the URIs.
    const stdout = process.stdout;
    const sink = new ByteSink((b) => void stdout.write(b), () => stdout.writableLength === 0);
    const drained = async (): Promise<void> => {
      if (stdout.writableNeedDrain) await once(stdout, 'drain');
    };
    for (const source of sources) {
      const name = source === '-' ? undefined : source;
      if (html !== undefined) {
        // 2003 draft §5.1: the base is the first <base href>, else the URI the document was retrieved from.
        const documentUri = base ?? (name !== undefined ? pathToFileURL(resolvePath(name)).href : undefined);
        if (documentUri === undefined) throw new UsageError('--html on standard input needs --base URI (the document\'s own URI)', 'extract');
        // HTML encoding sniffing of a file, which has no transport layer: --charset is the user's
        // override, and UTF-8 is recognised before the default ("Files from the local file system
        // that contain bytes with values greater than 0x7F which match the UTF-8 pattern are very
        // likely to be UTF-8").
        const context = charset !== undefined ? { encoding: charset } : undefined;
        const found = html.extractLinksFromHtml(await readBytes(source), documentUri, context, { detectUtf8: true });
        for (const l of found.links) {
          if (l.uri === undefined) {
            failed++;
            sink.flush(); // the error line comes after the links before it
            if (!json) process.stderr.write(`${name ?? '-'}:@${l.offset}: <${l.element} ${l.attribute}=${JSON.stringify(l.value)}>: ${l.error ?? 'unresolvable'}\n`);
          }
          if (json) sink.text(JSON.stringify(name === undefined ? { base: found.base, ...l } : { source: name, base: found.base, ...l }) + '\n');
          else if (l.uri !== undefined) {
            sink.text(l.uri);
            sink.byte(10);
          }
        }
        sink.flush();
        await drained();
        continue;
      }
      const fd = source === '-' ? 0 : openSync(source, 'r');
      try {
        for await (const batch of extractUriBatches(textChunks(fdReader(fd, () => process.stdin)), opts)) {
          for (const found of batch) {
            if (json) sink.text(JSON.stringify(name === undefined ? { ...found } : { source: name, ...found }) + '\n');
            else {
              sink.text(found.uri);
              sink.byte(10);
            }
          }
          if (sink.length >= 1 << 16) {
            sink.flush();
            await drained();
          }
        }
      } finally {
        if (fd !== 0) closeSync(fd);
      }
    }
    sink.flush();
    await drained();
    return failed > 0 ? EXIT_INVALID : EXIT_OK;
  },
};
