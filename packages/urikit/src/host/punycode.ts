/**
 * Punycode (RFC 3492, https://www.rfc-editor.org/rfc/rfc3492): the
 * Bootstring encoding of a Unicode label as ASCII, used by IDNA for the
 * `xn--` labels of internationalized domain names (UTS #46 §4).
 *
 * Both directions work on code points (not UTF-16 units) and reject what
 * RFC 3492 §6.2 and §6.3 call overflow; errors are `bad-idna`.
 */
import { UriError } from '../errors.js';
import { HOST_NAME_MESSAGES, registerMessages } from '../messages.js';

// The messages of the host name codes this module throws (messages.ts).
registerMessages(HOST_NAME_MESSAGES);

// RFC 3492 §5 Parameter values for Punycode
const base = 36;
const tMin = 1;
const tMax = 26;
const skew = 38;
const damp = 700;
const initialBias = 72;
const initialN = 0x80;
const delimiter = 0x2d; // "-"
/** The largest code point (Unicode); a decoded value above it is invalid. */
const maxCodePoint = 0x10ffff;
/**
 * DEVIATION(RFC 3492 has no limit): decoding and encoding are quadratic in
 * the label length (each insertion shifts the output; each code point
 * value is searched for in the whole label), so a label longer than any
 * DNS name (253 characters, RFC 1034 §3.1) is refused instead of letting
 * a hostile string cost seconds. DNS labels are at most 63 octets.
 */
const maxInput = 253;

/** RFC 3492 §6.1 Bias adaptation function. */
function adapt(delta: number, numPoints: number, firstTime: boolean): number {
  let d = firstTime ? Math.floor(delta / damp) : delta >>> 1;
  d += Math.floor(d / numPoints);
  let k = 0;
  while (d > ((base - tMin) * tMax) >> 1) {
    d = Math.floor(d / (base - tMin));
    k += base;
  }
  return k + Math.floor(((base - tMin + 1) * d) / (d + skew));
}

/** RFC 3492 §5: digit-values 0..25 are "a".."z" (or "A".."Z"), 26..35 are "0".."9". */
function digitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30 + 26;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x7a) return l - 0x61;
  return -1;
}

/** RFC 3492 §5: the basic code point of a digit-value, in lower case. */
function digitChar(d: number): number {
  return d < 26 ? d + 0x61 : d - 26 + 0x30;
}

/**
 * Decodes a Punycode string (without the `xn--` prefix) to Unicode,
 * following RFC 3492 §6.2 (https://www.rfc-editor.org/rfc/rfc3492#section-6.2);
 * throws a {@link UriError} `bad-idna` on a non-basic character, a bad
 * digit, a truncated delta or an overflow. `offset` is added to error
 * offsets, so they can point into a longer input.
 *
 * @example
 * ```ts
 * punycodeDecode('bcher-kva') // "bücher"
 * punycodeDecode('zca') // "ß"
 * ```
 */
export function punycodeDecode(input: string, offset = 0, whole: string = input): string {
  if (input.length > maxInput) throw new UriError('bad-idna', offset + maxInput, whole, 'label too long to decode');
  const output: number[] = [];
  // Let b be the number of input code points before the last delimiter (or 0 if there is none).
  let b = input.lastIndexOf(String.fromCharCode(delimiter));
  if (b < 0) b = 0;
  for (let j = 0; j < b; j++) {
    const c = input.charCodeAt(j);
    if (c >= 0x80) throw new UriError('bad-idna', offset + j, whole, 'a non-basic code point before the delimiter');
    output.push(c);
  }
  let n = initialN;
  let i = 0;
  let bias = initialBias;
  // The main decoding loop starts just after the last delimiter if any basic code points were copied.
  for (let inPos = b > 0 ? b + 1 : 0; inPos < input.length; ) {
    const oldi = i;
    let w = 1;
    for (let k = base; ; k += base) {
      if (inPos >= input.length) throw new UriError('bad-idna', offset + inPos, whole, 'a truncated Punycode delta');
      const digit = digitValue(input.charCodeAt(inPos));
      if (digit < 0) throw new UriError('bad-idna', offset + inPos, whole, 'not a Punycode digit');
      inPos++;
      i += digit * w;
      if (i > maxCodePoint * (output.length + 1)) throw new UriError('bad-idna', offset + inPos - 1, whole, 'Punycode overflow');
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (digit < t) break;
      w *= base - t;
      // RFC 3492 §6.2 "fail on overflow"; a later digit 0 may still end the delta, so only a weight
      // beyond exact integer arithmetic is refused here.
      if (w > Number.MAX_SAFE_INTEGER / base) throw new UriError('bad-idna', offset + inPos - 1, whole, 'Punycode overflow');
    }
    const length = output.length + 1;
    bias = adapt(i - oldi, length, oldi === 0);
    n += Math.floor(i / length);
    i %= length;
    // A decoded code point must be a Unicode scalar value above the basic range.
    if (n > maxCodePoint || (n >= 0xd800 && n <= 0xdfff)) {
      throw new UriError('bad-idna', offset + inPos - 1, whole, 'Punycode decodes to an invalid code point');
    }
    output.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...output);
}

/**
 * Encodes a Unicode string with Punycode (without the `xn--` prefix),
 * following RFC 3492 §6.3 (https://www.rfc-editor.org/rfc/rfc3492#section-6.3);
 * basic code points are copied as written, digits are lower case. Throws
 * a {@link UriError} `bad-idna` on a lone surrogate.
 *
 * @example
 * ```ts
 * punycodeEncode('bücher') // "bcher-kva"
 * punycodeEncode('ß') // "zca"
 * ```
 */
export function punycodeEncode(input: string): string {
  const codePoints: number[] = [];
  for (let j = 0; j < input.length; j++) {
    const c = input.codePointAt(j)!;
    if (c >= 0xd800 && c <= 0xdfff) throw new UriError('bad-idna', j, input, 'a lone surrogate');
    if (c > 0xffff) j++;
    codePoints.push(c);
  }
  if (codePoints.length > maxInput) throw new UriError('bad-idna', 0, input, 'label too long to encode');
  let out = '';
  for (const c of codePoints) if (c < 0x80) out += String.fromCharCode(c);
  const b = out.length;
  let h = b;
  if (b > 0) out += '-';
  let n = initialN;
  let delta = 0;
  let bias = initialBias;
  while (h < codePoints.length) {
    // Let m = the minimum code point >= n in the input.
    let m = maxCodePoint + 1;
    for (const c of codePoints) if (c >= n && c < m) m = c;
    delta += (m - n) * (h + 1);
    n = m;
    for (const c of codePoints) {
      if (c < n) delta++;
      if (c === n) {
        let q = delta;
        for (let k = base; ; k += base) {
          const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
          if (q < t) break;
          out += String.fromCharCode(digitChar(t + ((q - t) % (base - t))));
          q = Math.floor((q - t) / (base - t));
        }
        out += String.fromCharCode(digitChar(q));
        bias = adapt(delta, h + 1, h === b);
        delta = 0;
        h++;
      }
    }
    delta++;
    n++;
  }
  return out;
}
