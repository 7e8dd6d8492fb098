/**
 * `urikit extract`: the URIs a careful reader would see in plain text
 * (Appendix E of the 1997 and 2003 drafts), or every link of an HTML
 * document resolved against its base.
 */
import { createReadStream, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { extractUriBatches } from 'urikit';
import { COMMON, EXIT_INVALID, EXIT_OK, UsageError, type Command } from '../command.js';
import { writeOut } from '../inputs.js';
import type { ExtractOptions } from 'urikit';

async function readAll(source: string): Promise<string> {
  if (source !== '-') return readFile(source, 'utf8');
  const parts: Buffer[] = [];
  for await (const c of process.stdin as AsyncIterable<Buffer>) parts.push(c);
  return Buffer.concat(parts).toString('utf8');
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
  details: 'Text: wrappers (<...>, <URL:...>, quotes, brackets) and trailing sentence punctuation are handled as\nAppendix E of the drafts says; the text is streamed, never held whole. HTML (--html): every href, src,\naction, cite, srcset... resolved against the document\'s base (2003 draft §5.1: the first <base href>,\nelse --base, else the file\'s own file: URI). Prints one URI per line; with --json one object per URI:\ntext {source, uri, start, end, ...}, HTML {source, base, element, attribute, value, uri, offset} (error instead\nof uri for a link that cannot be resolved).',
  options: {
    ...COMMON,
    json: { type: 'boolean', help: 'one JSON object per URI found: {uri, start, end, ...}, with "source" for a file' },
    html: { type: 'boolean', help: 'read the input as HTML and list its links' },
    base: { type: 'string', short: 'b', arg: 'URI', help: 'the URI of the document (HTML: the base when there is no <base href>)' },
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
  ],
  exitStatus: '0 done (whether or not URIs were found), 1 an HTML link that cannot be resolved, 2 usage error, 3 a file could not be read.',
  run: async (args) => {
    const sources = args.positionals.length > 0 ? args.positionals : ['-'];
    for (const f of sources) if (f !== '-' && !existsSync(f)) throw new UsageError(`cannot read ${f}: no such file`, 'extract');
    if (sources.every((s) => s === '-') && process.stdin.isTTY) throw new UsageError('no input: give FILE arguments or pipe text on standard input', 'extract');
    const json = args.values.json === true;
    const opts: ExtractOptions = {};
    const schemes = args.values.scheme as string[] | undefined;
    if (schemes?.length) opts.schemes = schemes.includes('any') ? 'any' : schemes;
    if (args.values.abbreviated === true) opts.abbreviated = true;
    if (args.values.emails === true) opts.emails = true;
    if (args.values['no-iri'] === true) opts.iri = false;
    const base = args.values.base as string | undefined;
    let failed = 0;
    // The output is written in blocks of about 64 KB, not a write per URI:
    // tens of thousands of small writes cost more than finding the URIs.
    let pending = '';
    const flush = async (): Promise<void> => {
      const text = pending;
      pending = '';
      await writeOut(text);
    };
    for (const source of sources) {
      const name = source === '-' ? undefined : source;
      const emit = async (rec: Record<string, unknown>, link: string): Promise<void> => {
        pending += json ? JSON.stringify(name === undefined ? rec : { source: name, ...rec }) + '\n' : link + '\n';
        if (pending.length >= 65536) await flush();
      };
      if (args.values.html === true) {
        // 2003 draft §5.1: the base is the first <base href>, else the URI the document was retrieved from.
        const documentUri = base ?? (name !== undefined ? pathToFileURL(resolvePath(name)).href : undefined);
        if (documentUri === undefined) throw new UsageError('--html on standard input needs --base URI (the document\'s own URI)', 'extract');
        const found = (await import('@urikit/html')).extractLinksFromHtml(await readAll(source), documentUri);
        for (const l of found.links) {
          if (l.uri === undefined) {
            failed++;
            await flush(); // the error line comes after the links before it
            if (!json) process.stderr.write(`${name ?? '-'}:@${l.offset}: <${l.element} ${l.attribute}=${JSON.stringify(l.value)}>: ${l.error ?? 'unresolvable'}\n`);
          }
          if (json) await emit({ base: found.base, ...l }, '');
          else if (l.uri !== undefined) await emit({}, l.uri);
        }
        continue;
      }
      const stream = source === '-' ? process.stdin : createReadStream(source, { highWaterMark: 4 << 20 });
      for await (const batch of extractUriBatches(stream as AsyncIterable<Buffer>, opts)) {
        for (const found of batch) {
          if (json) await emit({ ...found }, '');
          else {
            pending += found.uri + '\n';
            if (pending.length >= 65536) await flush();
          }
        }
      }
    }
    await flush();
    return failed > 0 ? EXIT_INVALID : EXIT_OK;
  },
};
