/**
 * The rare IPv4 address formats of the 2003 draft §7.3 (RFC 3986 §7.4):
 * what `inet_aton()` reads, and what the WHATWG URL Standard's IPv4 parser
 * reads, so that a filter can work on the address a host really names
 * instead of on its text.
 */

/** 2^32 - 1, the largest IPv4 address. */
const MAX_ADDRESS = 0xffffffff;

/**
 * Whose reading of a host {@link interpretLegacyIPv4} follows: `inet_aton`
 * (a C resolver, glibc) or `url` (the WHATWG URL Standard's IPv4 parser,
 * https://url.spec.whatwg.org/#concept-ipv4-parser: a browser, `fetch`,
 * Node's `URL`). They differ only on an empty hexadecimal part, `0x`,
 * which `url` reads as 0 and `inet_aton` refuses; where both read an
 * address it is the same address.
 *
 * @example
 * ```ts
 * const reader: IPv4Reader = 'url';
 * interpretLegacyIPv4('127.0x.0x.1', { reader }) // 2130706433
 * ```
 */
export type IPv4Reader = 'inet_aton' | 'url';

/**
 * The 32-bit address `inet_aton()` (or, with `{ reader: 'url' }`, the URL
 * Standard's IPv4 parser) would read from `text`, or `undefined` when it
 * would refuse it (2003 draft §7.3,
 * https://www.rfc-editor.org/rfc/rfc3986#section-7.4).
 *
 * 1 to 4 parts separated by "."; each part is hexadecimal after `0x` or
 * `0X`, octal after a leading `0`, decimal otherwise (as in C). With n
 * parts, the first n-1 are single bytes and the last fills the remaining
 * 5-n bytes: `a` is 32 bits, `a.b` is 8.24, `a.b.c` is 8.8.16,
 * `a.b.c.d` is 8.8.8.8.
 *
 * DEVIATION(inet_aton): glibc also accepts trailing white space followed
 * by anything (`"127.1 junk"`); a URI host never contains white space,
 * so such text is refused here. As in glibc, `0x` without digits is refused,
 * unless the reader is `url`: the URL Standard's IPv4 number parser reads
 * an empty number after `0x` as 0, so `fetch('http://0x7f.0x.1/')` goes to
 * 127.0.0.1. A filter must read a host both ways ({@link classifyHost} does).
 * The `url` reader also drops one trailing empty part (`127.0.0.1.`).
 *
 * @example
 * ```ts
 * interpretLegacyIPv4('0x7f.1') // 2130706433 (127.0.0.1)
 * interpretLegacyIPv4('0x7f.0x.1') // undefined (inet_aton refuses "0x")
 * interpretLegacyIPv4('0x7f.0x.1', { reader: 'url' }) // 2130706433
 * interpretLegacyIPv4('0177.0.0.1') // 2130706433
 * interpretLegacyIPv4('2130706433') // 2130706433
 * interpretLegacyIPv4('127.1') // 2130706433
 * interpretLegacyIPv4('1.2.3.4.5') // undefined
 * ```
 */
export function interpretLegacyIPv4(text: string, opts?: { reader?: IPv4Reader }): number | undefined {
  const url = opts?.reader === 'url';
  // URL Standard IPv4 parser step 3: one trailing empty part is dropped.
  const end = url && text.length > 1 && text.charCodeAt(text.length - 1) === 0x2e ? text.length - 1 : text.length;
  const parts: number[] = [];
  let i = 0;
  if (end === 0) return undefined;
  for (;;) {
    if (parts.length === 4) return undefined;
    // One C integer constant: 0x... hexadecimal, 0... octal, else decimal.
    let radix = 10;
    const first = i;
    if (text.charCodeAt(i) === 0x30) {
      radix = 8;
      i++;
      const x = text.charCodeAt(i) | 0x20;
      if (x === 0x78) {
        radix = 16;
        i++;
      }
    }
    let value = 0;
    let digits = 0;
    while (i < end) {
      const c = text.charCodeAt(i);
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) d = (c | 0x20) - 0x57;
      else break;
      if (d >= radix) return undefined; // "08", "1a"
      value = value * radix + d;
      if (value > MAX_ADDRESS) return undefined;
      digits++;
      i++;
    }
    // A part is "0" or some digits; "0x" needs at least one hexadecimal
    // digit for glibc, none for the URL Standard's IPv4 number parser (step 6:
    // an empty input after the prefix is 0).
    if (i === first || (radix === 10 && digits === 0) || (radix === 16 && digits === 0 && !url)) return undefined;
    parts.push(value);
    if (i === end) break;
    if (text.charCodeAt(i) !== 0x2e) return undefined;
    i++;
    if (i === end) return undefined; // an empty last part ("1.2.3.")
  }
  // Every part but the last is one byte; the last fills what is left.
  const n = parts.length;
  let address = 0;
  for (let k = 0; k < n - 1; k++) {
    if (parts[k]! > 255) return undefined;
    address = address * 256 + parts[k]!;
  }
  const lastBits = 8 * (5 - n);
  const last = parts[n - 1]!;
  if (last >= 2 ** lastBits) return undefined;
  return address * 2 ** lastBits + last;
}
