/**
 * Strict dotted-decimal IPv4 addresses (2003 draft §3.2.2, RFC 3986 §3.2.2
 * `IPv4address`): four `dec-octet`s 0–255 without leading zeros. Anything
 * else that looks like a number (`256.0.0.1`, `010.0.0.1`, `0x7f.1`) is a
 * reg-name, never an address (DESIGN.md rulings; RFC 3986 §7.4).
 */

/**
 * Reads `text[start, end)` as `IPv4address = dec-octet "." dec-octet "."
 * dec-octet "." dec-octet` (RFC 3986 §3.2.2) and returns the 32-bit value
 * as an unsigned number, or `undefined` when it is not exactly that.
 *
 * ```text
 * dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
 * ```
 *
 * @example
 * ```ts
 * parseIPv4Address('192.0.2.1') // 3221225985
 * parseIPv4Address('256.0.0.1') // undefined (a reg-name)
 * parseIPv4Address('[10.0.0.1]', 1, 9) // 167772161
 * ```
 */
export function parseIPv4Address(text: string, start = 0, end = text.length): number | undefined {
  let value = 0;
  let octets = 0;
  let i = start;
  while (i < end) {
    // dec-octet: 1 to 3 digits, no leading zero unless the octet is "0".
    const first = i;
    let octet = 0;
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      octet = octet * 10 + (c - 0x30);
      i++;
      if (i - first > 3) return undefined;
    }
    const digits = i - first;
    if (digits === 0 || octet > 255) return undefined;
    if (digits > 1 && text.charCodeAt(first) === 0x30) return undefined;
    value = value * 256 + octet;
    octets++;
    if (i === end) break;
    if (octets === 4 || text.charCodeAt(i) !== 0x2e) return undefined;
    i++;
    if (i === end) return undefined; // a trailing "."
  }
  return octets === 4 ? value : undefined;
}

/**
 * The dotted-decimal text of a 32-bit unsigned value (RFC 3986 §3.2.2).
 *
 * @example
 * ```ts
 * formatIPv4(3221225985) // "192.0.2.1"
 * ```
 */
export function formatIPv4(n: number): string {
  const v = n >>> 0;
  return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

// dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35,
// the longer forms tried first (RFC 3986 §3.2.2).
const DEC_OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = /* @__PURE__ */ new RegExp(`(?:${DEC_OCTET}\\.){3}${DEC_OCTET}`, 'y');

/**
 * True if `text[start, end)` is exactly an `IPv4address` (RFC 3986
 * §3.2.2): the scanner's test of a reg-name (first-match-wins), which
 * computes no value (one above 2^31 would be allocated, see
 * {@link parseIPv4Address}).
 *
 * @example
 * ```ts
 * isIPv4Address('//192.0.2.1/', 2, 11) // true
 * isIPv4Address('//192.0.2.01/', 2, 12) // false
 * ```
 */
export function isIPv4Address(text: string, start: number, end: number): boolean {
  const first = text.charCodeAt(start);
  if (!(first >= 0x30 && first <= 0x39)) return false;
  IPV4.lastIndex = start;
  return IPV4.test(text) && IPV4.lastIndex === end;
}
