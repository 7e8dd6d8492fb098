/**
 * Finding URIs in a stream of text without holding all of it
 * (2003 draft Appendix E over input of any size).
 */
import { UriScanner } from './scanner.js';
import { LOOKBACK } from './delimiters.js';
import type { ExtractOptions, UriMatch } from './match.js';

/**
 * Finds the URIs of a stream of text chunks (strings, or UTF-8 bytes such
 * as a Node `Readable` gives) exactly as {@link extractUris} would on the
 * whole text, with offsets (UTF-16 code units) into the whole stream
 * (2003 draft Appendix E, https://www.rfc-editor.org/rfc/rfc3986#appendix-C).
 * Only a bounded look-back and the URI being read are kept between chunks;
 * a URI split across chunks is still found. Total work is linear: a URI
 * still open at the end of a chunk is re-read only once the text after it
 * has at least doubled.
 *
 * @example
 * ```ts
 * async function* chunks() { yield 'see http://exa'; yield 'mple.com/a. Bye'; }
 * const found: [string, number][] = [];
 * for await (const m of extractUrisFromStream(chunks())) found.push([m.uri, m.start]);
 * found // [["http://example.com/a", 4]]
 * ```
 */
export async function* extractUrisFromStream(
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  opts?: ExtractOptions,
): AsyncGenerator<UriMatch, void, undefined> {
  for await (const batch of extractUriBatches(source, opts)) yield* batch;
}

/**
 * {@link extractUrisFromStream} a chunk at a time: yields, after each
 * chunk of the stream is read, the array of the URIs that chunk completed
 * (empty arrays are not yielded). For a consumer that handles many URIs,
 * one step of the generator per chunk costs less than one per URI.
 *
 * @see https://www.rfc-editor.org/rfc/rfc3986#appendix-C
 * @example
 * ```ts
 * async function* chunks() { yield 'see http://a.example/ and http://b.exa'; yield 'mple/ too'; }
 * const batches: string[][] = [];
 * for await (const b of extractUriBatches(chunks())) batches.push(b.map((m) => m.uri));
 * batches // [["http://a.example/"], ["http://b.example/"]]
 * ```
 */
export async function* extractUriBatches(
  source: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>,
  opts?: ExtractOptions,
): AsyncGenerator<UriMatch[], void, undefined> {
  const scanner = new UriScanner(opts);
  let decoder: TextDecoder | undefined;
  let buffer = '';
  let base = 0; // offset in the stream of buffer[0]
  let waitFor = 0; // with a pending URI, the buffer length worth scanning again

  const step = (final: boolean): UriMatch[] => {
    scanner.text = buffer;
    scanner.final = final;
    // The scanner makes a new match object for each URI and keeps none: their offsets move to the stream's.
    const found: UriMatch[] = [];
    scanner.run(found);
    for (const m of found) {
      m.start += base;
      m.end += base;
    }
    if (final) return found;
    // Keep the look-back window and any URI still being read.
    const keep = Math.max(scanner.floor, (scanner.pending ? scanner.pos : buffer.length) - LOOKBACK, 0);
    buffer = buffer.slice(keep);
    base += keep;
    scanner.floor -= keep;
    scanner.pos -= keep;
    waitFor = scanner.pending ? buffer.length + (buffer.length - scanner.pos) : 0;
    return found;
  };

  for await (const chunk of source) {
    buffer += typeof chunk === 'string' ? chunk : (decoder ??= new TextDecoder()).decode(chunk, { stream: true });
    if (buffer.length < waitFor) continue;
    const found = step(false);
    if (found.length > 0) yield found;
  }
  if (decoder !== undefined) buffer += decoder.decode();
  const found = step(true);
  if (found.length > 0) yield found;
}
